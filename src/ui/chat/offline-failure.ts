import { isLoopbackUrl } from '../../core/loopback-url';

/** The contract's code for an answer stream that broke after it started. */
const STREAM_INTERRUPTED = 'PROVIDER_STREAM_INTERRUPTED';

/**
 * A streamed answer that broke off while the browser says it is offline: the lost connection
 * broke it, so the user is told they are offline rather than that the stream "was interrupted".
 * The core cannot tell (it saw only a stream that ended early); the code stays as it is.
 */
export function brokeOffWhileOffline(code: string, baseUrl: string | null, online: boolean): boolean {
  return !online && code === STREAM_INTERRUPTED && !isLoopbackUrl(baseUrl);
}
