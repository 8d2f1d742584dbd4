import { AppError, isAbortError, type ErrorCode } from '../../contracts';
import { MetonaProviderError, isMetonaError, type MetonaError, type MetonaErrorCode } from '../../ir';
import { toAppError, userAbortedError, type ContractCodeContext } from '../shared/errors';
import type { DeviceCheckReason, DeviceCheckResult } from '../../models/device-check';
import { WEBLLM_PROVIDER_ID } from '../../models/model-catalog';

/**
 * web-llm's failures to `MetonaError`. Its errors are matched by `name`
 * (set as a string literal on each class, so it survives minification), with
 * the message as a fallback for the few classes that set none.
 */

/** What the engine was doing: a failed fetch means different things while loading and while answering. */
export type EnginePhase = 'load' | 'generate' | 'cache';

const provider = WEBLLM_PROVIDER_ID;
const MAX_MESSAGE_LENGTH = 400;

function tidy(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_LENGTH ? `${oneLine.slice(0, MAX_MESSAGE_LENGTH)}…` : oneLine;
}

function error(code: MetonaErrorCode, message: string, providerCode: string, retryable = false): MetonaError {
  return { code, message: tidy(message), provider, providerCode, retryable };
}

/**
 * Device problems are not in the IR's code list. WebGPU missing is an
 * unavailable provider (`model_overloaded`, as a 503 is); a model this GPU
 * cannot run is reported as `model_not_found` ("not available here"). The
 * reason travels in `providerCode`, and `toWebLlmAppError` turns it into the
 * contract's MODEL_CAPABILITY_MISMATCH / PROVIDER_UNAVAILABLE / STORAGE_QUOTA_EXCEEDED.
 */
export function deviceCheckError(reason: DeviceCheckReason, message: string): MetonaError {
  switch (reason) {
    case 'no_webgpu':
    case 'no_adapter':
      return error('model_overloaded', message, reason);
    case 'no_shader_f16':
    case 'insufficient_memory':
      return error('model_not_found', message, reason);
    case 'insufficient_storage':
      return error('quota_exceeded', message, reason);
    default: {
      const unhandled: never = reason;
      return unhandled;
    }
  }
}

/** A failed device check as the error an adapter or download throws. */
export function deviceCheckFailure(result: Extract<DeviceCheckResult, { ok: false }>): MetonaProviderError {
  return new MetonaProviderError(deviceCheckError(result.reason, result.message));
}

const CONTRACT_CODES: Record<string, ErrorCode> = {
  no_webgpu: 'PROVIDER_UNAVAILABLE',
  no_adapter: 'PROVIDER_UNAVAILABLE',
  no_shader_f16: 'MODEL_CAPABILITY_MISMATCH',
  insufficient_memory: 'MODEL_CAPABILITY_MISMATCH',
  device_lost: 'MODEL_CAPABILITY_MISMATCH',
  insufficient_storage: 'STORAGE_QUOTA_EXCEEDED',
  model_not_downloaded: 'MODEL_NOT_FOUND',
};

/** The contract error a user sees: the shared mapping, refined by this provider's device reasons. */
export function toWebLlmAppError(error: MetonaError, context: ContractCodeContext = {}): AppError {
  const app = toAppError(error, context);
  const refined = error.providerCode ? CONTRACT_CODES[error.providerCode] : undefined;
  if (!refined || refined === app.code) return app;
  return new AppError(refined, app.message, { ...app.details, reason: error.providerCode });
}

function isFetchFailure(value: Error): boolean {
  // Chromium: "Failed to fetch"; Firefox: "NetworkError when attempting…"; Safari: "Load failed";
  // web-llm's cache: "Cannot fetch <url>".
  return (
    value.name === 'NetworkError' ||
    /failed to fetch|networkerror|load failed|cannot fetch/i.test(value.message)
  );
}

export interface MapContext {
  modelId?: string;
  phase: EnginePhase;
}

/** Anything web-llm (or the cache, or the browser) threw, as a `MetonaError`; never a bare TypeError. */
export function mapWebLlmError(thrown: unknown, { modelId, phase }: MapContext): MetonaError {
  if (thrown instanceof MetonaProviderError) return thrown.toJSON();
  if (isMetonaError(thrown)) return thrown;
  if (isAbortError(thrown)) return userAbortedError(provider);
  const value = thrown instanceof Error ? thrown : new Error(typeof thrown === 'string' ? thrown : 'unknown');
  const model = modelId ? `"${modelId}"` : 'the model';
  const name = value.name;
  const message = value.message;

  switch (name) {
    case 'WebGPUNotAvailableError':
    case 'WebGPUNotFoundError':
      return deviceCheckError(
        'no_webgpu',
        'This browser does not offer WebGPU, which local models need. Use a recent Chrome or Edge, ' +
          'or choose Ollama or a remote provider.',
      );
    case 'ShaderF16SupportError':
      return deviceCheckError(
        'no_shader_f16',
        `${model} needs the WebGPU feature "shader-f16", which this GPU does not offer. Choose a q4f32 model.`,
      );
    case 'FeatureSupportError':
      return deviceCheckError('insufficient_memory', `This GPU lacks a feature ${model} needs: ${message}`);
    case 'DeviceLostError':
      return error(
        'model_not_found',
        `The GPU gave up while running ${model}, usually because it ran out of memory. ` +
          'Choose a smaller model or close other GPU-heavy tabs.',
        'device_lost',
      );
    case 'ModelNotFoundError':
    case 'SpecifiedModelNotFoundError':
    case 'WorkerEngineModelNotLoadedError':
      return error('model_not_found', `web-llm does not know ${model}.`, name);
    case 'ContextWindowSizeExceededError':
      return error(
        'context_length_exceeded',
        `The conversation is longer than ${model}'s context window. Start a new chat or shorten the notes sent.`,
        name,
      );
    case 'ToolCallOutputParseError':
    case 'ToolCallOutputInvalidTypeError':
    case 'ToolCallOutputMissingFieldsError':
      return error('parse_error', `The model's tool call could not be read: ${message}`, name);
    case 'IntegrityError':
      return error(
        'invalid_response',
        `A downloaded file of ${model} failed its integrity check. Delete the model and download it again.`,
        name,
      );
    case 'QuotaExceededError':
      return deviceCheckError(
        'insufficient_storage',
        `The browser ran out of storage while saving ${model}. Delete other downloaded models or free disk space.`,
      );
    default:
      break;
  }
  if (name === 'CompileError' || name === 'LinkError') {
    // WebAssembly refused the model library: damaged, or built for another web-llm version.
    return error(
      'invalid_response',
      `The model library of ${model} could not be loaded (damaged, or built for another web-llm version). ` +
        'Delete the model and download it again, or check the model library host.',
      'model_lib_invalid',
    );
  }
  if (/Model not loaded before/i.test(message)) {
    return error('model_not_found', `${model} is not loaded.`, 'ModelNotLoadedError');
  }
  if (/dynamically imported module|importing a module script failed/i.test(message)) {
    return error(
      'network_error',
      'The local-model engine could not be loaded. It is downloaded on first use, so that needs a connection once.',
      'engine_import_failed',
      true,
    );
  }
  if (isFetchFailure(value)) {
    // Offline, web-llm's first act is fetching the model's config from the hub.
    return phase === 'generate'
      ? error(
          'network_error',
          `The local engine lost a file it needed while answering: ${message}`,
          name,
          true,
        )
      : error(
          'network_error',
          `Could not download ${model}: the model host is unreachable (offline?). ` +
            'A model must be downloaded once while online before it works offline.',
          'model_fetch_failed',
          true,
        );
  }
  // Request validation (message order, generation config ranges, response format…).
  if (/Error$/.test(name) && name !== 'Error') {
    return error('unknown', `The local engine refused the request: ${message}`, name);
  }
  return error('unknown', message ? `The local engine failed: ${message}` : 'The local engine failed.', name);
}

export function modelNotDownloadedError(modelId: string): MetonaError {
  return error(
    'model_not_found',
    `The local model "${modelId}" is not downloaded yet. Download it in Settings → Local models first.`,
    'model_not_downloaded',
  );
}

/** A model file the host does not have (404), or any other refusal of the model host. */
export function modelFileMissingError(modelId: string, url: string, status: number): MetonaError {
  if (status === 404 || status === 410 || status === 0) {
    return error(
      'model_not_found',
      `The model host has no files for "${modelId}" (${status === 0 ? 'unreadable' : `HTTP ${status}`}: ${url}). ` +
        'Check the model host in Settings → Local models.',
      'model_files_missing',
    );
  }
  return error(
    'model_overloaded',
    `The model host refused a file of "${modelId}" (HTTP ${status}). Try again later or use another model host.`,
    `http_${status}`,
    status >= 500 || status === 429,
  );
}

/** The model host could not be reached (offline, DNS, CORS). */
export function modelHostFailedError(modelId: string, url: string, cause: unknown): MetonaError {
  const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
  return error(
    'network_error',
    `Could not download "${modelId}": the model host is unreachable${detail}. ` +
      `A model must be downloaded once while online before it works offline. URL: ${url}`,
    'model_fetch_failed',
    true,
  );
}
