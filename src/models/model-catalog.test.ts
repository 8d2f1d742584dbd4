import type { MLCEngineInterface } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { CURATED_MODELS } from './curated-models';
import type { WebLlmEnginePort } from '../providers/webllm/engine-port';
import {
  WEBLLM_CATALOG,
  WEBLLM_MODEL_VERSION,
  estimateDownloadMB,
  findCatalogEntry,
  needsShaderF16,
  quantizationOf,
  toModelInfo,
} from './model-catalog';
import prebuilt from './prebuilt-models.generated.json';
import { snapshotPrebuilt } from './prebuilt-snapshot';

// web-llm's real engine satisfies the narrow port the adapter and the double use.
const _engineFitsPort = (engine: MLCEngineInterface): WebLlmEnginePort => engine;
void _engineFitsPort;

describe('web-llm model catalog', () => {
  it('is generated from the installed web-llm (run generate-catalog.ts after an upgrade)', async () => {
    // Node-only: the build never bundles this import; only llm.worker.ts loads web-llm.
    const webllm = await import('@mlc-ai/web-llm');
    const fresh = snapshotPrebuilt(
      webllm,
      CURATED_MODELS.map((model) => model.id),
    );
    expect(prebuilt).toEqual(fresh);
    expect(WEBLLM_MODEL_VERSION).toBe(webllm.modelVersion);
  });

  it('offers small chat models with their needs', () => {
    expect(WEBLLM_CATALOG.length).toBeGreaterThanOrEqual(20);
    expect(new Set(WEBLLM_CATALOG.map((entry) => entry.id)).size).toBe(WEBLLM_CATALOG.length);
    for (const entry of WEBLLM_CATALOG) {
      expect(entry.vramMB, entry.id).toBeGreaterThan(0);
      expect(entry.downloadSizeMB, entry.id).toBeGreaterThan(100);
      // Weights never take more room than the GPU memory web-llm asks for.
      expect(entry.downloadSizeMB, entry.id).toBeLessThan(entry.vramMB);
      expect([1024, 2048, 4096]).toContain(entry.contextWindow);
      expect(entry.sourceUrl).toMatch(/^https:\/\/huggingface\.co\/mlc-ai\//);
      expect(entry.languages.note.length).toBeGreaterThan(0);
    }
    const sizes = WEBLLM_CATALOG.map((entry) => entry.downloadSizeMB);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });

  it('marks float16 models as needing shader-f16 and points them to their q4f32 twin', () => {
    for (const entry of WEBLLM_CATALOG) {
      expect(entry.requiresShaderF16, entry.id).toBe(entry.quantization === 'q4f16_1');
      if (entry.requiresShaderF16) {
        expect(entry.f32Alternative).toBe(entry.id.replace('q4f16_1', 'q4f32_1'));
        expect(findCatalogEntry(entry.f32Alternative!)?.requiresShaderF16).toBe(false);
      } else {
        expect(entry.f32Alternative).toBeUndefined();
      }
    }
    // web-llm lists the feature for some f16 models only; the quantization decides.
    expect(needsShaderF16('Qwen3-1.7B-q4f16_1-MLC')).toBe(true);
    expect(needsShaderF16('Qwen3-1.7B-q4f32_1-MLC')).toBe(false);
    expect(needsShaderF16('x-q4f32_1-MLC', ['shader-f16'])).toBe(true);
    expect(findCatalogEntry('SmolLM2-360M-Instruct-q4f16_1-MLC')?.requiredFeatures).toEqual(['shader-f16']);
  });

  it('takes native tool calling from web-llm and thinking from the curated list', () => {
    const native = WEBLLM_CATALOG.filter((entry) => entry.toolCalling === 'native').map((entry) => entry.id);
    expect(native.sort()).toEqual(['Hermes-3-Llama-3.1-8B-q4f16_1-MLC', 'Hermes-3-Llama-3.1-8B-q4f32_1-MLC']);
    expect(findCatalogEntry('Qwen3-1.7B-q4f32_1-MLC')?.thinking).toBe(true);
    expect(findCatalogEntry('Qwen2.5-1.5B-Instruct-q4f32_1-MLC')?.thinking).toBe(false);
    expect(findCatalogEntry('Qwen2.5-1.5B-Instruct-q4f32_1-MLC')?.languages.zh).toBe('good');
    expect(findCatalogEntry('gemma-2-2b-it-q4f32_1-MLC-1k')?.contextWindow).toBe(1024);
  });

  it('estimates downloads from parameters and quantization', () => {
    expect(quantizationOf('Llama-3.2-1B-Instruct-q4f16_1-MLC')).toBe('q4f16_1');
    expect(quantizationOf('gemma-2-2b-it-q4f32_1-MLC-1k')).toBe('q4f32_1');
    expect(quantizationOf('SmolLM2-135M-Instruct-q0f16-MLC')).toBe('q0f16');
    // Llama 3.2 1B in q4f16_1 is about 0.7 GB on Hugging Face.
    expect(estimateDownloadMB(1.24, 'q4f16_1')).toBeGreaterThan(600);
    expect(estimateDownloadMB(1.24, 'q4f16_1')).toBeLessThan(750);
    expect(estimateDownloadMB(1, 'q4f32_1')).toBeGreaterThan(estimateDownloadMB(1, 'q4f16_1'));
  });

  it('describes models in the IR, claiming tools everywhere and images nowhere', () => {
    const info = toModelInfo(findCatalogEntry('Qwen3-4B-q4f32_1-MLC')!);
    expect(info).toMatchObject({
      providerId: 'webllm',
      contextWindow: 4096,
      maxOutput: 2048,
      supportsThinking: true,
      supportsToolCalling: true,
      supportsImages: false,
      supportsStreaming: true,
    });
  });
});
