import onnxProto from 'onnx-proto';
import { seededRandom } from '../../../core/seeded-random';
import { DEFAULT_TINY_VOCABULARY, SPECIAL_TOKENS, TINY_MODEL_STOP_TOKENS, uniqueTokens } from './vocabulary';

/**
 * A tiny embedding model that transformers.js loads like any hub model, for
 * tests and for end-to-end runs on machines that cannot download weights.
 *
 * The ONNX graph is a static embedding: a Gather of one table row per token id,
 * times the attention mask, as `last_hidden_state`; the feature-extraction
 * pipeline then mean-pools and normalises it as it does for a real sentence
 * encoder. The tokenizer is BERT's (lower-casing normaliser that splits CJK
 * characters, WordPiece with `##` continuations).
 *
 * A row is built from hashes of the token's character trigrams and of the whole
 * token, so words that share letters (`schedule`, `scheduler`) point the same
 * way and texts that share words score high. Everything is derived from the
 * options by hashing: the same options give byte-identical files.
 *
 * Onnx-proto is a dev dependency: only tests and scripts import this module.
 */
const { onnx } = onnxProto;

export interface TinyEmbeddingModelOptions {
  /** Vector size (`hidden_size`); default 32. */
  dimension?: number;
  /** Tokens besides the special ones; default DEFAULT_TINY_VOCABULARY. */
  vocabulary?: readonly string[];
  /** Changes every vector (and `config.json`), as a retrained model would. */
  seed?: string;
}

/** File path inside the model folder → content, in the layout transformers.js reads. */
export type TinyModelFiles = Record<
  'config.json' | 'tokenizer.json' | 'tokenizer_config.json' | 'onnx/model.onnx',
  Uint8Array
>;

export const TINY_MODEL_DEFAULT_DIMENSION = 32;
export const TINY_MODEL_DEFAULT_SEED = 'tiny-v1';

/** Stop tokens get this share of a normal token's length, so they barely move the mean. */
const STOP_TOKEN_WEIGHT = 0.15;
const MAX_TOKENS = 512;
const OPSET = 13;
const IR_VERSION = 7;

/** The vocabulary (special tokens first) and one row per token: shared by the tiny models. */
export function buildTinyTokenTable(options: TinyEmbeddingModelOptions = {}): {
  tokens: string[];
  table: Float32Array;
  dimension: number;
  seed: string;
} {
  const dimension = options.dimension ?? TINY_MODEL_DEFAULT_DIMENSION;
  const seed = options.seed ?? TINY_MODEL_DEFAULT_SEED;
  if (!Number.isInteger(dimension) || dimension < 2 || dimension > 4096) {
    throw new RangeError(`dimension must be an integer from 2 to 4096, not ${dimension}`);
  }
  const tokens = [...SPECIAL_TOKENS, ...uniqueTokens(options.vocabulary ?? DEFAULT_TINY_VOCABULARY)];
  const table = new Float32Array(tokens.length * dimension);
  tokens.forEach((token, id) => {
    if ((SPECIAL_TOKENS as readonly string[]).includes(token)) return; // zero rows: ignored by the mean's direction
    table.set(tokenVector(token, dimension, seed), id * dimension);
  });
  return { tokens, table, dimension, seed };
}

export function buildTinyEmbeddingModel(options: TinyEmbeddingModelOptions = {}): TinyModelFiles {
  const { tokens, table, dimension, seed } = buildTinyTokenTable(options);

  const encoder = new TextEncoder();
  const json = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value, null, 1)}\n`);
  return {
    'config.json': json({
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: dimension,
      vocab_size: tokens.length,
      max_position_embeddings: MAX_TOKENS,
      // Not read by transformers.js; it makes the config (and so the embedder's
      // model_version) differ between tiny models that embed differently.
      notes_agent_tiny_model: { seed, dimension, vocabulary_size: tokens.length },
    }),
    'tokenizer.json': json(tokenizerJson(tokens)),
    'tokenizer_config.json': json({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: MAX_TOKENS,
      unk_token: '[UNK]',
      pad_token: '[PAD]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      clean_up_tokenization_spaces: true,
    }),
    'onnx/model.onnx': staticEmbeddingGraph(table, tokens.length, dimension),
  };
}

/** Every CJK character and every ASCII word of at least two letters in `texts`, most frequent first. */
export function vocabularyFromTexts(texts: Iterable<string>, limit = 20_000): string[] {
  const counts = new Map<string, number>();
  const pattern = /[\u3400-\u9fff\uf900-\ufaff]|[a-z0-9]{2,}/g;
  for (const text of texts) {
    for (const match of text.toLowerCase().matchAll(pattern)) {
      counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([token]) => token);
}

/** BERT's tokenizer over `tokens` (WordPiece, CJK split, pair template with token types). */
export function tokenizerJson(tokens: readonly string[]): unknown {
  const vocab = Object.fromEntries(tokens.map((token, id) => [token, id]));
  const idOf = (token: string): number => vocab[token] ?? 1;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: idOf(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [idOf('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [idOf('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

/**
 * The token's row: the sum of pseudo-random directions for the whole token and
 * for each character trigram of `<token>`, scaled to unit length (stop tokens
 * shorter). A `##` piece uses its letters without the leading `<`.
 */
function tokenVector(token: string, dimension: number, seed: string): Float32Array {
  const continuation = token.startsWith('##');
  const core = continuation ? token.slice(2) : token;
  const vector = new Float32Array(dimension);
  const addFeature = (feature: string, weight: number): void => {
    const random = seededRandom(hash32(`${seed}\u0000${feature}`));
    for (let index = 0; index < dimension; index++) {
      vector[index] = (vector[index] ?? 0) + weight * (random() * 2 - 1);
    }
  };
  addFeature(`t:${core}`, 1);
  if (/^[a-z0-9]+$/.test(core) && core.length > 1) {
    const padded = `${continuation ? '' : '<'}${core}>`;
    const trigrams = padded.length - 2;
    for (let start = 0; start < trigrams; start++) {
      addFeature(`g:${padded.slice(start, start + 3)}`, 1 / Math.sqrt(trigrams));
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  const scale = (TINY_MODEL_STOP_TOKENS.has(token) ? STOP_TOKEN_WEIGHT : 1) / Math.sqrt(norm || 1);
  for (let index = 0; index < dimension; index++) vector[index] = (vector[index] ?? 0) * scale;
  return vector;
}

/**
 * input_ids, attention_mask (int64 [batch, sequence]) →
 * last_hidden_state = Gather(table, input_ids) · Unsqueeze(Cast(attention_mask)).
 */
function staticEmbeddingGraph(table: Float32Array, vocabularySize: number, dimension: number): Uint8Array {
  const { TensorProto } = onnx;
  const tokenInput = (name: string): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: {
      tensorType: {
        elemType: TensorProto.DataType.INT64,
        shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }] },
      },
    },
  });
  const graph: onnxProto.onnx.IGraphProto = {
    name: 'static_embedding',
    initializer: [
      {
        name: 'embedding_table',
        dataType: TensorProto.DataType.FLOAT,
        dims: [vocabularySize, dimension],
        rawData: littleEndianBytes(table),
      },
      { name: 'last_axis', dataType: TensorProto.DataType.INT64, dims: [1], int64Data: [-1] },
    ],
    input: [tokenInput('input_ids'), tokenInput('attention_mask')],
    output: [
      {
        name: 'last_hidden_state',
        type: {
          tensorType: {
            elemType: TensorProto.DataType.FLOAT,
            shape: {
              dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }, { dimValue: dimension }],
            },
          },
        },
      },
    ],
    node: [
      {
        opType: 'Gather',
        input: ['embedding_table', 'input_ids'],
        output: ['token_embeddings'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
      {
        opType: 'Cast',
        input: ['attention_mask'],
        output: ['mask_float'],
        attribute: [
          { name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: TensorProto.DataType.FLOAT },
        ],
      },
      { opType: 'Unsqueeze', input: ['mask_float', 'last_axis'], output: ['mask_column'] },
      { opType: 'Mul', input: ['token_embeddings', 'mask_column'], output: ['last_hidden_state'] },
    ],
  };
  return onnx.ModelProto.encode({
    irVersion: IR_VERSION,
    producerName: 'notes-agent-tiny-model',
    opsetImport: [{ domain: '', version: OPSET }],
    graph,
  }).finish();
}

export function littleEndianBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return bytes;
}

/** FNV-1a over UTF-16 units with a murmur3 finaliser (same family as hash-v1's). */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
