import { describe, expect, it } from 'vitest';
import { MetonaProviderError } from '../../ir';
import { engineError } from './__fixtures__/engine-double';
import { deviceCheckError, mapWebLlmError, modelNotDownloadedError, toWebLlmAppError } from './map-error';

const model = 'Qwen3-1.7B-q4f32_1-MLC';

describe('web-llm error mapping', () => {
  it('turns an offline config fetch into a clear, retryable unavailability, never a bare TypeError', () => {
    const error = mapWebLlmError(new TypeError('Failed to fetch'), { modelId: model, phase: 'load' });
    expect(error).toMatchObject({
      code: 'network_error',
      providerCode: 'model_fetch_failed',
      retryable: true,
    });
    expect(error.message).toMatch(/Could not download "Qwen3-1.7B-q4f32_1-MLC".*offline/);
    expect(toWebLlmAppError(error).code).toBe('PROVIDER_UNAVAILABLE');
    // A programming TypeError is not mistaken for the network.
    expect(
      mapWebLlmError(new TypeError("Cannot read properties of undefined (reading 'x')"), { phase: 'load' })
        .code,
    ).toBe('unknown');
  });

  it('says a model library WebAssembly refuses is damaged, not that the request was refused', () => {
    const error = mapWebLlmError(
      engineError('CompileError', 'WebAssembly.instantiate(): expected magic word 00 61 73 6d'),
      { modelId: model, phase: 'load' },
    );
    expect(error).toMatchObject({
      code: 'invalid_response',
      providerCode: 'model_lib_invalid',
      retryable: false,
    });
    expect(error.message).toMatch(/model library of "Qwen3-1.7B-q4f32_1-MLC" could not be loaded/);
  });

  it('explains a failed import of the engine itself', () => {
    const error = mapWebLlmError(
      new TypeError('Failed to fetch dynamically imported module: /assets/index.js'),
      {
        phase: 'load',
      },
    );
    expect(error).toMatchObject({ code: 'network_error', providerCode: 'engine_import_failed' });
  });

  it.each([
    ['WebGPUNotAvailableError', 'model_overloaded', 'PROVIDER_UNAVAILABLE'],
    ['ShaderF16SupportError', 'model_not_found', 'MODEL_CAPABILITY_MISMATCH'],
    ['DeviceLostError', 'model_not_found', 'MODEL_CAPABILITY_MISMATCH'],
    ['ModelNotFoundError', 'model_not_found', 'MODEL_NOT_FOUND'],
    ['ContextWindowSizeExceededError', 'context_length_exceeded', 'MODEL_CONTEXT_LENGTH_EXCEEDED'],
    ['ToolCallOutputParseError', 'parse_error', 'PROVIDER_PROTOCOL_ERROR'],
    ['QuotaExceededError', 'quota_exceeded', 'STORAGE_QUOTA_EXCEEDED'],
    ['MessageOrderError', 'unknown', 'PROVIDER_PROTOCOL_ERROR'],
  ])('%s → %s / %s', (name, code, contract) => {
    const error = mapWebLlmError(engineError(name, 'details'), { modelId: model, phase: 'generate' });
    expect(error.code).toBe(code);
    expect(error.provider).toBe('webllm');
    expect(error.retryable).toBe(false);
    expect(toWebLlmAppError(error).code).toBe(contract);
  });

  it('keeps aborts and errors that are already mapped', () => {
    expect(mapWebLlmError(new DOMException('x', 'AbortError'), { phase: 'load' }).code).toBe('user_aborted');
    const mapped = modelNotDownloadedError(model);
    expect(mapWebLlmError(new MetonaProviderError(mapped), { phase: 'load' })).toEqual(mapped);
    expect(toWebLlmAppError(mapped).code).toBe('MODEL_NOT_FOUND');
  });

  it('maps device check reasons to the contract codes', () => {
    expect(toWebLlmAppError(deviceCheckError('no_adapter', 'm')).code).toBe('PROVIDER_UNAVAILABLE');
    expect(toWebLlmAppError(deviceCheckError('no_shader_f16', 'm'))).toMatchObject({
      code: 'MODEL_CAPABILITY_MISMATCH',
      details: { reason: 'no_shader_f16', retryable: false },
    });
    expect(toWebLlmAppError(deviceCheckError('insufficient_storage', 'm')).code).toBe(
      'STORAGE_QUOTA_EXCEEDED',
    );
  });
});
