import * as Comlink from 'comlink';
import { AppError, toErrorEnvelope, type ErrorEnvelope } from '../contracts/errors';

/**
 * Errors cross the worker boundary as the contract's envelope and arrive as
 * AppError with their code, never as a raw stack. Imported by both sides.
 */
const builtIn = Comlink.transferHandlers.get('throw');
if (builtIn) {
  const handler: Comlink.TransferHandler<{ value: unknown }, { envelope: ErrorEnvelope }> = {
    canHandle: (value): value is { value: unknown } => builtIn.canHandle(value),
    serialize({ value }) {
      if (!(value instanceof AppError)) console.error('core worker error', value);
      return [{ envelope: toErrorEnvelope(value) }, []];
    },
    deserialize({ envelope }) {
      throw AppError.fromEnvelope(envelope);
    },
  };
  Comlink.transferHandlers.set('throw', handler as Comlink.TransferHandler<unknown, unknown>);
}
