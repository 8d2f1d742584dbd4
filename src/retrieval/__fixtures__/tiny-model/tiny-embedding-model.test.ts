import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { buildTinyEmbeddingModel, vocabularyFromTexts } from './tiny-embedding-model';
import { DEFAULT_TINY_VOCABULARY, SPECIAL_TOKENS } from './vocabulary';

const decode = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));

describe('buildTinyEmbeddingModel', () => {
  it('is deterministic: the same options give byte-identical files', () => {
    const first = buildTinyEmbeddingModel();
    const second = buildTinyEmbeddingModel();
    for (const path of Object.keys(first) as Array<keyof typeof first>) {
      expect(Buffer.from(second[path]).equals(Buffer.from(first[path])), path).toBe(true);
    }
    const reseeded = buildTinyEmbeddingModel({ seed: 'other' });
    expect(Buffer.from(reseeded['onnx/model.onnx']).equals(Buffer.from(first['onnx/model.onnx']))).toBe(
      false,
    );
    expect(Buffer.from(reseeded['config.json']).equals(Buffer.from(first['config.json']))).toBe(false);
  });

  it('writes the files transformers.js reads, with a BERT tokenizer that splits CJK characters', () => {
    const files = buildTinyEmbeddingModel({ dimension: 8 });
    const config = decode(files['config.json']) as Record<string, unknown>;
    expect(config).toMatchObject({ model_type: 'bert', hidden_size: 8 });
    const tokenizer = decode(files['tokenizer.json']) as Record<string, unknown>;
    // transformers.js needs these keys present; without a normaliser/pre-tokenizer every word is [UNK].
    expect(tokenizer).toHaveProperty('decoder');
    expect(tokenizer).toHaveProperty('post_processor');
    expect(tokenizer).toMatchObject({
      normalizer: { type: 'BertNormalizer', handle_chinese_chars: true, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##' },
    });
    const vocab = (tokenizer as { model: { vocab: Record<string, number> } }).model.vocab;
    SPECIAL_TOKENS.forEach((token, id) => expect(vocab[token]).toBe(id));
    expect(vocab).toHaveProperty('数');
    expect(vocab).toHaveProperty('##e');
    expect(Object.keys(vocab)).toHaveLength(SPECIAL_TOKENS.length + DEFAULT_TINY_VOCABULARY.length);
    expect(decode(files['tokenizer_config.json'])).toMatchObject({ tokenizer_class: 'BertTokenizer' });
  });

  it('is a Gather × mask graph whose table has one row per token', () => {
    const vocabulary = ['alpha', 'beta', '数'];
    const files = buildTinyEmbeddingModel({ vocabulary, dimension: 4 });
    const model = onnxProto.onnx.ModelProto.decode(files['onnx/model.onnx']);
    expect(model.graph?.node?.map((node) => node.opType)).toEqual(['Gather', 'Cast', 'Unsqueeze', 'Mul']);
    expect(model.graph?.input?.map((input) => input.name)).toEqual(['input_ids', 'attention_mask']);
    expect(model.graph?.output?.map((output) => output.name)).toEqual(['last_hidden_state']);
    const table = model.graph?.initializer?.find((tensor) => tensor.name === 'embedding_table');
    expect(table?.dims?.map(Number)).toEqual([SPECIAL_TOKENS.length + vocabulary.length, 4]);
    // Special tokens are zero rows; a word's row is unit length.
    const raw = table?.rawData ?? new Uint8Array();
    const rows = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    expect([...rows.slice(0, 16)].every((value) => value === 0)).toBe(true);
    const alpha = rows.slice(16, 20);
    expect(Math.hypot(...alpha)).toBeCloseTo(1, 5);
    expect(files['onnx/model.onnx'].byteLength).toBeLessThan(1024);
  });

  it('collects CJK characters and words from texts, most frequent first', () => {
    expect(vocabularyFromTexts(['Lock lock 死锁', 'lock 锁 a'])).toEqual(['lock', '锁', '死']);
  });
});
