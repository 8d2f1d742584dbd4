/**
 * The hand-curated half of the catalog: which of web-llm's prebuilt models we
 * offer, and what web-llm's config cannot say (parameter count, language
 * quality, thinking). Memory, context window, required GPU features and native
 * tool calling come from web-llm itself (`prebuilt-models.generated.json`).
 *
 * Chosen for a notebook on ordinary laptops: small chat models, Chinese and
 * English, each offered as q4f16 (smaller, needs `shader-f16`) and q4f32 (runs
 * on any WebGPU adapter, including SwiftShader in headless Chromium).
 */

export type LanguageQuality = 'good' | 'fair' | 'poor';

export interface CuratedModel {
  id: string;
  displayName: string;
  family: string;
  /** Total parameters in billions (model card); drives the download-size estimate. */
  parametersBillions: number;
  /** Emits `<think>…</think>` and honours web-llm's `extra_body.enable_thinking` (Qwen3). */
  thinking: boolean;
  languages: { zh: LanguageQuality; en: LanguageQuality; note: string };
}

const QWEN25_NOTE = 'Bilingual Chinese/English; good 中文 for its size.';
const QWEN3_NOTE = 'Bilingual Chinese/English with a thinking mode; strong 中文 for its size.';
const LLAMA_NOTE = 'English first; Chinese answers are understandable but often mix in English.';

function pair(
  base: string,
  suffix: string,
  model: Omit<CuratedModel, 'id' | 'displayName'> & { name: string },
): CuratedModel[] {
  const { name, ...rest } = model;
  return [
    { id: `${base}-q4f16_1-MLC${suffix}`, displayName: `${name} (q4f16)`, ...rest },
    { id: `${base}-q4f32_1-MLC${suffix}`, displayName: `${name} (q4f32)`, ...rest },
  ];
}

export const CURATED_MODELS: readonly CuratedModel[] = [
  ...pair('Qwen2.5-0.5B-Instruct', '', {
    name: 'Qwen2.5 0.5B Instruct',
    family: 'qwen2.5',
    parametersBillions: 0.49,
    thinking: false,
    languages: { zh: 'fair', en: 'fair', note: `${QWEN25_NOTE} Tiny: short answers only.` },
  }),
  ...pair('Qwen2.5-1.5B-Instruct', '', {
    name: 'Qwen2.5 1.5B Instruct',
    family: 'qwen2.5',
    parametersBillions: 1.54,
    thinking: false,
    languages: { zh: 'good', en: 'good', note: QWEN25_NOTE },
  }),
  ...pair('Qwen2.5-3B-Instruct', '', {
    name: 'Qwen2.5 3B Instruct',
    family: 'qwen2.5',
    parametersBillions: 3.09,
    thinking: false,
    languages: { zh: 'good', en: 'good', note: QWEN25_NOTE },
  }),
  ...pair('Qwen3-0.6B', '', {
    name: 'Qwen3 0.6B',
    family: 'qwen3',
    parametersBillions: 0.6,
    thinking: true,
    languages: { zh: 'fair', en: 'fair', note: `${QWEN3_NOTE} Tiny: short answers only.` },
  }),
  ...pair('Qwen3-1.7B', '', {
    name: 'Qwen3 1.7B',
    family: 'qwen3',
    parametersBillions: 1.7,
    thinking: true,
    languages: { zh: 'good', en: 'good', note: QWEN3_NOTE },
  }),
  ...pair('Qwen3-4B', '', {
    name: 'Qwen3 4B',
    family: 'qwen3',
    parametersBillions: 4.02,
    thinking: true,
    languages: { zh: 'good', en: 'good', note: QWEN3_NOTE },
  }),
  ...pair('Llama-3.2-1B-Instruct', '', {
    name: 'Llama 3.2 1B Instruct',
    family: 'llama-3.2',
    parametersBillions: 1.24,
    thinking: false,
    languages: { zh: 'poor', en: 'good', note: LLAMA_NOTE },
  }),
  ...pair('Llama-3.2-3B-Instruct', '', {
    name: 'Llama 3.2 3B Instruct',
    family: 'llama-3.2',
    parametersBillions: 3.21,
    thinking: false,
    languages: { zh: 'fair', en: 'good', note: LLAMA_NOTE },
  }),
  ...pair('gemma-2-2b-it', '-1k', {
    name: 'Gemma 2 2B (1k context)',
    family: 'gemma-2',
    parametersBillions: 2.61,
    thinking: false,
    languages: { zh: 'fair', en: 'good', note: 'English first; basic Chinese. Short 1k context.' },
  }),
  ...pair('Phi-3.5-mini-instruct', '-1k', {
    name: 'Phi 3.5 mini (1k context)',
    family: 'phi-3.5',
    parametersBillions: 3.82,
    thinking: false,
    languages: { zh: 'poor', en: 'good', note: 'English; weak Chinese. Short 1k context.' },
  }),
  ...pair('SmolLM2-360M-Instruct', '', {
    name: 'SmolLM2 360M Instruct',
    family: 'smollm2',
    parametersBillions: 0.36,
    thinking: false,
    languages: {
      zh: 'poor',
      en: 'fair',
      note: 'English only; the smallest download, for trying things out.',
    },
  }),
  // web-llm's only native tool callers (its `functionCallingModelIds`); large.
  ...pair('Hermes-3-Llama-3.1-8B', '', {
    name: 'Hermes 3 Llama 3.1 8B (native tools)',
    family: 'hermes-3',
    parametersBillions: 8.03,
    thinking: false,
    languages: { zh: 'fair', en: 'good', note: `${LLAMA_NOTE} Native function calling.` },
  }),
];
