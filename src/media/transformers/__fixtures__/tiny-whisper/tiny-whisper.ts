import { seededRandom } from '../../../../core/seeded-random';
import {
  encodeModel,
  floatTensor,
  graph,
  int64Tensor,
  node,
  valueInfo,
  type GraphParts,
} from './onnx-builder';

/**
 * A tiny Whisper-shaped model that transformers.js loads and runs like the real
 * one (`WhisperForConditionalGeneration` through the
 * `automatic-speech-recognition` pipeline), written by the tests themselves:
 * no download, no committed weights; about 0.3 MB written per model directory
 * (mostly the 1501 timestamp tokens and the decoder's position table).
 *
 * What is real: the file layout and names (`onnx/encoder_model.onnx`,
 * `onnx/decoder_model_merged.onnx` with `use_cache_branch`, per-layer
 * `past_key_values.N.{decoder,encoder}.{key,value}` in, `present.*` out,
 * `cross_attentions.N` for word timestamps), Whisper's config files, its
 * 80-bin log-mel front end (the pipeline's own feature extractor), its token
 * layout (text < `<|endoftext|>` < `<|startoftranscript|>` < languages <
 * tasks < `<|notimestamps|>` < 1501 timestamp tokens) and byte-level BPE
 * decoding. What is not: the encoder is one strided convolution, and the
 * decoder's logits depend only on the position of the token (past length +
 * offset), so it "says" a fixed script in every window: deterministic nonsense.
 * Its cross-attention is a real softmax over the encoder output, so word
 * timestamps go through transformers.js' DTW alignment too.
 *
 * Position 0 (after `<|startoftranscript|>`) ranks the languages (the
 * `detectLanguage` option first), which is what language detection reads.
 */

export const TINY_WHISPER_MODEL_ID = 'test/tiny-whisper';

const D_MODEL = 4;
const HEADS = 2;
const HEAD_DIM = D_MODEL / HEADS;
const DECODER_LAYERS = 2;
const MEL_BINS = 80;
const MEL_FRAMES = 3000;
const ENCODER_POSITIONS = 1500;
const MAX_TARGET_POSITIONS = 448;
/** 30 s in 0.02 s steps: <|0.00|> .. <|30.00|>. */
const TIMESTAMP_COUNT = 1501;
const TIME_PRECISION = 0.02;
/** Logit of the scripted token; every other token gets 0 (probability ~1e-13 each). */
const CHOSEN_LOGIT = 30;
/** How much the audio moves the encoder output next to its positions (small: it would blur the attention). */
const AUDIO_SCALE = 1e-4;

/**
 * Chinese words, as Whisper asked for zh often writes them: in Traditional characters. A
 * script of these lets a test check what the app makes of a Traditional transcript.
 */
const CHINESE_WORDS = ['這是', '語音', '識別', '。'] as const;

/** Text tokens, byte-level BPE spelling (Ġ is a leading space; a Chinese word is its UTF-8 bytes). */
const WORDS: readonly string[] = [
  'Ġhello',
  'Ġtiny',
  'Ġwhisper',
  '.',
  'Ġworld',
  'Ġagain',
  'Ġsays',
  'Ġnothing',
  ',',
  ...CHINESE_WORDS.map(byteLevel),
];
const LANGUAGES = ['en', 'zh', 'de'] as const;
export type TinyWhisperLanguage = (typeof LANGUAGES)[number];

/** Whisper's token layout in miniature. */
export const TINY_WHISPER_TOKENS = (() => {
  const endOfText = WORDS.length;
  const startOfTranscript = endOfText + 1;
  const languages = Object.fromEntries(
    LANGUAGES.map((language, index) => [language, startOfTranscript + 1 + index]),
  ) as Record<TinyWhisperLanguage, number>;
  const translate = startOfTranscript + 1 + LANGUAGES.length;
  const transcribe = translate + 1;
  const startOfLm = transcribe + 1;
  const startOfPrevious = startOfLm + 1;
  const noSpeech = startOfPrevious + 1;
  const noTimestamps = noSpeech + 1;
  const timestampBegin = noTimestamps + 1;
  return {
    words: Object.fromEntries(WORDS.map((word, index) => [word, index])) as Record<string, number>,
    endOfText,
    startOfTranscript,
    languages,
    translate,
    transcribe,
    startOfLm,
    startOfPrevious,
    noSpeech,
    noTimestamps,
    timestampBegin,
    vocabSize: timestampBegin + TIMESTAMP_COUNT,
  };
})();

/** A phrase of the fixed script, in seconds from the window start (multiples of 0.02, at most 30). */
export interface TinyWhisperPhrase {
  /** Words from the tiny vocabulary, without the Ġ: hello tiny whisper . world again says nothing , 這是 語音 識別 。 */
  words: readonly string[];
  start: number;
  end: number;
}

export const DEFAULT_TINY_WHISPER_SCRIPT: readonly TinyWhisperPhrase[] = [
  { words: ['hello', 'tiny', 'whisper', '.'], start: 0, end: 2 },
  { words: ['world', 'again', ','], start: 2, end: 4.5 },
];

/** "這是語音識別。" in every window: what Whisper, asked for zh, may write for 这是语音识别。 */
export const TRADITIONAL_CHINESE_TINY_WHISPER_SCRIPT: readonly TinyWhisperPhrase[] = [
  { words: ['這是', '語音', '識別', '。'], start: 0, end: 2 },
];

export interface TinyWhisperOptions {
  /** What the model says in every window. */
  script?: readonly TinyWhisperPhrase[];
  /** The language ranked first after <|startoftranscript|> (what detection finds). */
  detectLanguage?: TinyWhisperLanguage;
  /** Seed of the (deterministic) embedding, convolution and attention weights. */
  seed?: number;
}

/** The model's files by path in the model directory: JSON as text, ONNX as bytes. */
export type TinyWhisperFiles = Record<string, string | Uint8Array>;

/**
 * All files of the model. The same fp32 graphs are written under the names
 * every dtype looks for (`_quantized` for q8, `_fp16` is not written: fp16
 * needs half-precision tensors), so profiles with q8 load them too.
 */
export function buildTinyWhisper(options: TinyWhisperOptions = {}): TinyWhisperFiles {
  // Seeded, so the weights (and the cross-attention) are the same on every run.
  const random = seededRandom(options.seed ?? 1234);
  const encoder = encodeModel(graph(encoderGraph(random)));
  const decoder = encodeModel(graph(decoderGraph(random, options)));
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'config.json': json(modelConfig()),
    'generation_config.json': json(generationConfig()),
    'preprocessor_config.json': json(preprocessorConfig()),
    'tokenizer.json': JSON.stringify(tokenizerJson()),
    'tokenizer_config.json': json(tokenizerConfig()),
    'onnx/encoder_model.onnx': encoder,
    'onnx/decoder_model_merged.onnx': decoder,
    'onnx/encoder_model_quantized.onnx': encoder,
    'onnx/decoder_model_merged_quantized.onnx': decoder,
  };
}

/** The token ids the decoder emits after `<|startoftranscript|> <|lang|> <|transcribe|>` in timestamp mode. */
export function scriptTokens(script: readonly TinyWhisperPhrase[] = DEFAULT_TINY_WHISPER_SCRIPT): number[] {
  const tokens: number[] = [];
  for (const phrase of script) {
    tokens.push(timestampToken(phrase.start));
    for (const word of phrase.words) tokens.push(wordToken(word));
    tokens.push(timestampToken(phrase.end));
  }
  tokens.push(TINY_WHISPER_TOKENS.endOfText);
  return tokens;
}

function timestampToken(seconds: number): number {
  const steps = Math.round(seconds / TIME_PRECISION);
  if (steps < 0 || steps >= TIMESTAMP_COUNT)
    throw new RangeError(`timestamp ${seconds} s is outside 0..30 s`);
  return TINY_WHISPER_TOKENS.timestampBegin + steps;
}

function wordToken(word: string): number {
  const id = TINY_WHISPER_TOKENS.words[`Ġ${word}`] ?? TINY_WHISPER_TOKENS.words[byteLevel(word)];
  if (id === undefined) throw new RangeError(`"${word}" is not in the tiny vocabulary`);
  return id;
}

/**
 * GPT-2's byte-level spelling of text (what Whisper's tokenizer stores): each UTF-8 byte is
 * one printable character, the printable ASCII and Latin-1 bytes as themselves.
 */
function byteLevel(text: string): string {
  const printable = (byte: number) =>
    (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  const shifted = new Map<number, number>();
  for (let byte = 0, next = 256; byte < 256; byte++) if (!printable(byte)) shifted.set(byte, next++);
  return Array.from(new TextEncoder().encode(text), (byte) =>
    String.fromCharCode(shifted.get(byte) ?? byte),
  ).join('');
}

// ---------------------------------------------------------------------------
// Graphs

/** input_features [batch, 80, 3000] -> Conv(k3, s2, p1) -> last_hidden_state [batch, 1500, d_model]. */
function encoderGraph(random: () => number): GraphParts {
  const weights = new Float32Array(D_MODEL * MEL_BINS * 3).map(() => (random() - 0.5) * 0.2);
  const bias = new Float32Array(D_MODEL).map(() => (random() - 0.5) * 0.2);
  return {
    name: 'tiny_whisper_encoder',
    inputs: [valueInfo('input_features', 'float32', ['batch_size', MEL_BINS, MEL_FRAMES])],
    outputs: [valueInfo('last_hidden_state', 'float32', ['batch_size', ENCODER_POSITIONS, D_MODEL])],
    initializers: [
      floatTensor('conv.weight', [D_MODEL, MEL_BINS, 3], weights),
      floatTensor('conv.bias', [D_MODEL], bias),
      floatTensor('audio_scale', [], new Float32Array([AUDIO_SCALE])),
      floatTensor('embed_positions', [ENCODER_POSITIONS, D_MODEL], encoderPositions()),
    ],
    nodes: [
      node('Conv', ['input_features', 'conv.weight', 'conv.bias'], ['conv_out'], {
        kernel_shape: [3],
        strides: [2],
        pads: [1, 1],
      }),
      node('Tanh', ['conv_out'], ['conv_act']),
      node('Mul', ['conv_act', 'audio_scale'], ['conv_scaled']),
      node('Transpose', ['conv_scaled'], ['audio_states'], { perm: [0, 2, 1] }),
      node('Add', ['audio_states', 'embed_positions'], ['last_hidden_state']),
    ],
  };
}

/**
 * The merged decoder. Inputs: input_ids, encoder_hidden_states,
 * past_key_values.N.{decoder,encoder}.{key,value}, use_cache_branch. Outputs:
 * logits, present.N.*, cross_attentions.N. The decoder cache grows by the new
 * tokens' embeddings; the encoder cache is computed from encoder_hidden_states
 * on the first step and passed through after (an `If` on use_cache_branch, as
 * Optimum's merged exports do).
 */
function decoderGraph(random: () => number, options: TinyWhisperOptions): GraphParts {
  const { vocabSize } = TINY_WHISPER_TOKENS;
  const table = positionTable(options);
  const rows = table.length / vocabSize;
  const embedding = new Float32Array(vocabSize * D_MODEL).map(() => (random() - 0.5) * 2);

  const nodes = [
    // position of each new token = past length + 0..seq-1
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'const.one'], ['seq_len'], { axis: 0 }),
    node('Shape', ['past_key_values.0.decoder.key'], ['past_shape']),
    node('Gather', ['past_shape', 'const.two'], ['past_len'], { axis: 0 }),
    node('Add', ['past_len', 'seq_len'], ['end_position']),
    node('Range', ['past_len', 'end_position', 'const.one'], ['positions']),
    node('Min', ['positions', 'const.last_row'], ['table_rows']),
    node('Gather', ['position_table', 'table_rows'], ['row_logits'], { axis: 0 }),
    node('Unsqueeze', ['row_logits', 'const.axes0'], ['row_logits_3d']),
    node('Concat', ['ids_shape', 'const.vocab'], ['logits_shape'], { axis: 0 }),
    node('Expand', ['row_logits_3d', 'logits_shape'], ['logits']),
    // new keys/values: token embeddings split into heads [batch, heads, seq, head_dim]
    node('Gather', ['embedding', 'input_ids'], ['hidden'], { axis: 0 }),
    node('Reshape', ['hidden', 'const.heads_shape'], ['hidden_heads']),
    node('Transpose', ['hidden_heads'], ['new_states'], { perm: [0, 2, 1, 3] }),
    // cross-attention queries [1, heads, seq, head_dim]: each position looks at its token's time
    node('Gather', ['query_table', 'table_rows'], ['query_rows'], { axis: 0 }),
    node('Reshape', ['query_rows', 'const.query_shape'], ['query_heads']),
    node('Transpose', ['query_heads'], ['query'], { perm: [0, 2, 1, 3] }),
  ];
  const inputs = [
    valueInfo('input_ids', 'int64', ['batch_size', 'decoder_sequence_length']),
    valueInfo('encoder_hidden_states', 'float32', ['batch_size', 'encoder_sequence_length_out', D_MODEL]),
  ];
  const outputs = [valueInfo('logits', 'float32', ['batch_size', 'decoder_sequence_length', vocabSize])];
  for (let layer = 0; layer < DECODER_LAYERS; layer++) {
    const past = `past_key_values.${layer}`;
    const present = `present.${layer}`;
    for (const kind of ['key', 'value']) {
      inputs.push(
        valueInfo(`${past}.decoder.${kind}`, 'float32', [
          'batch_size',
          HEADS,
          'past_decoder_sequence_length',
          HEAD_DIM,
        ]),
      );
      inputs.push(
        valueInfo(`${past}.encoder.${kind}`, 'float32', [
          'batch_size',
          HEADS,
          'encoder_sequence_length_out',
          HEAD_DIM,
        ]),
      );
      outputs.push(
        valueInfo(`${present}.decoder.${kind}`, 'float32', [
          'batch_size',
          HEADS,
          'past_decoder_sequence_length + decoder_sequence_length',
          HEAD_DIM,
        ]),
        valueInfo(`${present}.encoder.${kind}`, 'float32', [
          'batch_size',
          HEADS,
          'encoder_sequence_length_out',
          HEAD_DIM,
        ]),
      );
      nodes.push(
        node('Concat', [`${past}.decoder.${kind}`, 'new_states'], [`${present}.decoder.${kind}`], {
          axis: 2,
        }),
      );
    }
    const reuse = graph({
      name: `reuse_encoder_cache_${layer}`,
      inputs: [],
      outputs: [
        valueInfo(`then.${layer}.key`, 'float32', [
          'batch_size',
          HEADS,
          'encoder_sequence_length_out',
          HEAD_DIM,
        ]),
        valueInfo(`then.${layer}.value`, 'float32', [
          'batch_size',
          HEADS,
          'encoder_sequence_length_out',
          HEAD_DIM,
        ]),
      ],
      nodes: [
        node('Identity', [`${past}.encoder.key`], [`then.${layer}.key`]),
        node('Identity', [`${past}.encoder.value`], [`then.${layer}.value`]),
      ],
    });
    const compute = graph({
      name: `compute_encoder_cache_${layer}`,
      inputs: [],
      outputs: [
        valueInfo(`else.${layer}.key`, 'float32', [
          'batch_size',
          HEADS,
          'encoder_sequence_length_out',
          HEAD_DIM,
        ]),
        valueInfo(`else.${layer}.value`, 'float32', [
          'batch_size',
          HEADS,
          'encoder_sequence_length_out',
          HEAD_DIM,
        ]),
      ],
      nodes: [
        node('Reshape', ['encoder_hidden_states', 'const.heads_shape'], [`else.${layer}.heads`]),
        node('Transpose', [`else.${layer}.heads`], [`else.${layer}.key`], { perm: [0, 2, 1, 3] }),
        node('Identity', [`else.${layer}.key`], [`else.${layer}.value`]),
      ],
    });
    nodes.push(
      node('If', ['use_cache_branch'], [`${present}.encoder.key`, `${present}.encoder.value`], {
        then_branch: reuse,
        else_branch: compute,
      }),
      // cross-attention weights: softmax(q k^T / sqrt(head_dim)) over the encoder positions
      node('Transpose', [`${present}.encoder.key`], [`keys_t.${layer}`], { perm: [0, 1, 3, 2] }),
      node('MatMul', ['query', `keys_t.${layer}`], [`scores.${layer}`]),
      node('Mul', [`scores.${layer}`, `const.scale.${layer}`], [`scaled.${layer}`]),
      node('Softmax', [`scaled.${layer}`], [`cross_attentions.${layer}`], { axis: -1 }),
    );
    outputs.push(
      valueInfo(`cross_attentions.${layer}`, 'float32', [
        'batch_size',
        HEADS,
        'decoder_sequence_length',
        'encoder_sequence_length_out',
      ]),
    );
  }
  inputs.push(valueInfo('use_cache_branch', 'bool', [1]));

  return {
    name: 'tiny_whisper_decoder_merged',
    inputs,
    outputs,
    nodes,
    initializers: [
      floatTensor('position_table', [rows, vocabSize], table),
      floatTensor('embedding', [vocabSize, D_MODEL], embedding),
      floatTensor('query_table', [rows, D_MODEL], queryTable(options, rows)),
      int64Tensor('const.query_shape', [4], [1, -1, HEADS, HEAD_DIM]),
      int64Tensor('const.one', [], [1]),
      int64Tensor('const.two', [], [2]),
      int64Tensor('const.last_row', [], [rows - 1]),
      int64Tensor('const.axes0', [1], [0]),
      int64Tensor('const.vocab', [1], [vocabSize]),
      int64Tensor('const.heads_shape', [4], [0, 0, HEADS, HEAD_DIM]),
      ...Array.from({ length: DECODER_LAYERS }, (_, layer) =>
        floatTensor(`const.scale.${layer}`, [], new Float32Array([(layer + 1) / Math.sqrt(HEAD_DIM)])),
      ),
    ],
  };
}

/**
 * Row p holds the logits of the token after position p: p = 0 (after
 * <|startoftranscript|>) ranks the languages, p = 1 gives <|transcribe|>, then
 * the script from p = 2 (after <|transcribe|>); the last row, which every later
 * position reads, gives <|endoftext|>.
 */
function positionTable(options: TinyWhisperOptions): Float32Array {
  const { vocabSize, languages, transcribe, endOfText } = TINY_WHISPER_TOKENS;
  const script = scriptTokens(options.script ?? DEFAULT_TINY_WHISPER_SCRIPT);
  const targets = [transcribe, ...script];
  const rows = 2 + script.length + 1;
  if (rows > MAX_TARGET_POSITIONS) throw new RangeError('the script is too long');
  const table = new Float32Array(rows * vocabSize);
  const first = options.detectLanguage ?? 'en';
  // languages in order of preference: the chosen one, then the rest
  [first, ...LANGUAGES.filter((language) => language !== first)].forEach((language, rank) => {
    table[languages[language]] = CHOSEN_LOGIT - 5 * rank;
  });
  targets.forEach((token, index) => {
    table[(index + 1) * vocabSize + token] = CHOSEN_LOGIT;
  });
  table[(rows - 1) * vocabSize + endOfText] = CHOSEN_LOGIT;
  return table;
}

/** Radians per encoder frame: 1500 frames span half a turn, so each frame has its own angle. */
const ANGLE_PER_FRAME = Math.PI / ENCODER_POSITIONS;
/** Query length: makes the cross-attention a peak a few frames wide around the token's time. */
const QUERY_SHARPNESS = 20_000;

/** Sinusoidal encoder positions (Whisper adds such a table too): frame f is (cos af, sin af) in every head. */
function encoderPositions(): Float32Array {
  const table = new Float32Array(ENCODER_POSITIONS * D_MODEL);
  for (let frame = 0; frame < ENCODER_POSITIONS; frame++) {
    for (let head = 0; head < HEADS; head++) {
      table[frame * D_MODEL + head * HEAD_DIM] = Math.cos(ANGLE_PER_FRAME * frame);
      table[frame * D_MODEL + head * HEAD_DIM + 1] = Math.sin(ANGLE_PER_FRAME * frame);
    }
  }
  return table;
}

/**
 * Row p: the cross-attention query of the token at position p, pointing at
 * the encoder frame of that token's time (words spread evenly over their
 * phrase, timestamps at their value), so the DTW of word timestamps finds the
 * script's timing.
 */
function queryTable(options: TinyWhisperOptions, rows: number): Float32Array {
  const times = [0, 0, 0, ...scriptTimes(options.script ?? DEFAULT_TINY_WHISPER_SCRIPT)];
  const table = new Float32Array(rows * D_MODEL);
  for (let row = 0; row < rows; row++) {
    const frame = (times[Math.min(row, times.length - 1)] ?? 0) / TIME_PRECISION;
    for (let head = 0; head < HEADS; head++) {
      table[row * D_MODEL + head * HEAD_DIM] = QUERY_SHARPNESS * Math.cos(ANGLE_PER_FRAME * frame);
      table[row * D_MODEL + head * HEAD_DIM + 1] = QUERY_SHARPNESS * Math.sin(ANGLE_PER_FRAME * frame);
    }
  }
  return table;
}

/** The time (seconds) of each token of `scriptTokens(script)`. */
function scriptTimes(script: readonly TinyWhisperPhrase[]): number[] {
  const times: number[] = [];
  for (const phrase of script) {
    times.push(phrase.start);
    const step = (phrase.end - phrase.start) / Math.max(1, phrase.words.length);
    phrase.words.forEach((_, index) => times.push(phrase.start + (index + 0.5) * step));
    times.push(phrase.end);
  }
  times.push(script.at(-1)?.end ?? 0);
  return times;
}

// ---------------------------------------------------------------------------
// Config files

function modelConfig() {
  const { vocabSize, startOfTranscript, endOfText } = TINY_WHISPER_TOKENS;
  return {
    _name_or_path: TINY_WHISPER_MODEL_ID,
    architectures: ['WhisperForConditionalGeneration'],
    model_type: 'whisper',
    is_encoder_decoder: true,
    d_model: D_MODEL,
    encoder_layers: 1,
    encoder_attention_heads: HEADS,
    decoder_layers: DECODER_LAYERS,
    decoder_attention_heads: HEADS,
    encoder_ffn_dim: D_MODEL * 4,
    decoder_ffn_dim: D_MODEL * 4,
    num_mel_bins: MEL_BINS,
    max_source_positions: ENCODER_POSITIONS,
    max_target_positions: MAX_TARGET_POSITIONS,
    vocab_size: vocabSize,
    decoder_start_token_id: startOfTranscript,
    bos_token_id: endOfText,
    eos_token_id: endOfText,
    pad_token_id: endOfText,
    median_filter_width: 7,
    use_cache: true,
  };
}

function generationConfig() {
  const t = TINY_WHISPER_TOKENS;
  return {
    decoder_start_token_id: t.startOfTranscript,
    bos_token_id: t.endOfText,
    eos_token_id: t.endOfText,
    pad_token_id: t.endOfText,
    max_length: MAX_TARGET_POSITIONS,
    is_multilingual: true,
    lang_to_id: Object.fromEntries(LANGUAGES.map((language) => [`<|${language}|>`, t.languages[language]])),
    task_to_id: { translate: t.translate, transcribe: t.transcribe },
    no_timestamps_token_id: t.noTimestamps,
    prev_sot_token_id: t.startOfPrevious,
    max_initial_timestamp_index: 50,
    alignment_heads: [
      [1, 0],
      [1, 1],
    ],
  };
}

function preprocessorConfig() {
  return {
    feature_extractor_type: 'WhisperFeatureExtractor',
    processor_class: 'WhisperProcessor',
    feature_size: MEL_BINS,
    sampling_rate: 16_000,
    hop_length: 160,
    n_fft: 400,
    chunk_length: 30,
    n_samples: 480_000,
    nb_max_frames: MEL_FRAMES,
    padding_side: 'right',
    padding_value: 0,
    return_attention_mask: false,
  };
}

/** Special tokens in id order; the timestamps are added tokens too, but not special (as in Whisper). */
function addedTokens(): Array<{ id: number; content: string; special: boolean }> {
  const t = TINY_WHISPER_TOKENS;
  const special = [
    [t.endOfText, '<|endoftext|>'],
    [t.startOfTranscript, '<|startoftranscript|>'],
    ...LANGUAGES.map((language) => [t.languages[language], `<|${language}|>`] as const),
    [t.translate, '<|translate|>'],
    [t.transcribe, '<|transcribe|>'],
    [t.startOfLm, '<|startoflm|>'],
    [t.startOfPrevious, '<|startofprev|>'],
    [t.noSpeech, '<|nospeech|>'],
    [t.noTimestamps, '<|notimestamps|>'],
  ] as const;
  const timestamps = Array.from({ length: TIMESTAMP_COUNT }, (_, index) => ({
    id: t.timestampBegin + index,
    content: `<|${(index * TIME_PRECISION).toFixed(2)}|>`,
    special: false,
  }));
  return [...special.map(([id, content]) => ({ id, content, special: true })), ...timestamps];
}

function tokenizerJson() {
  const added = addedTokens();
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added.map(({ id, content, special }) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special,
    })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab: Object.fromEntries([
        ...WORDS.map((word, index) => [word, index] as const),
        ...added.map(({ id, content }) => [content, id] as const),
      ]),
      merges: [],
    },
  };
}

function tokenizerConfig() {
  return {
    tokenizer_class: 'WhisperTokenizer',
    model_max_length: MAX_TARGET_POSITIONS,
    bos_token: '<|endoftext|>',
    eos_token: '<|endoftext|>',
    unk_token: '<|endoftext|>',
    pad_token: '<|endoftext|>',
    add_prefix_space: false,
    clean_up_tokenization_spaces: true,
    errors: 'replace',
  };
}
