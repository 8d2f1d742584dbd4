import onnxProto from 'onnx-proto';
import {
  buildTinyTokenTable,
  littleEndianBytes,
  tokenizerJson,
  type TinyEmbeddingModelOptions,
  type TinyModelFiles,
} from './tiny-embedding-model';

/**
 * A tiny cross-encoder that transformers.js loads as a BERT sequence
 * classifier (one logit), for the reranker's tests. The tokenizer puts the
 * query and the passage in one input with token types 0 and 1, as a real
 * cross-encoder's does; the graph sums the token rows of each side and
 * scores the pair by the cosine of the two sums:
 *
 *   q = Σ_t E[id_t]·mask_t·(1 − type_t),  p = Σ_t E[id_t]·mask_t·type_t
 *   logits = q·p / (‖q‖‖p‖ + ε)
 *
 * So it scores query and passage jointly (one of them alone scores 0), and a
 * passage that shares more query words scores higher. Same vocabulary and
 * rows as the tiny embedding model. Dev dependency onnx-proto: tests only.
 */
const { onnx } = onnxProto;
const OPSET = 13;
const IR_VERSION = 7;
const MAX_TOKENS = 512;

export const TINY_CROSS_ENCODER_ID = 'notes-agent/tiny-cross-encoder';

export function buildTinyCrossEncoder(options: TinyEmbeddingModelOptions = {}): TinyModelFiles {
  const { tokens, table, dimension, seed } = buildTinyTokenTable(options);
  const encoder = new TextEncoder();
  const json = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value, null, 1)}\n`);
  return {
    'config.json': json({
      architectures: ['BertForSequenceClassification'],
      model_type: 'bert',
      hidden_size: dimension,
      vocab_size: tokens.length,
      max_position_embeddings: MAX_TOKENS,
      num_labels: 1,
      id2label: { 0: 'LABEL_0' },
      label2id: { LABEL_0: 0 },
      notes_agent_tiny_model: { kind: 'cross-encoder', seed, dimension, vocabulary_size: tokens.length },
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
    'onnx/model.onnx': pairScoreGraph(table, tokens.length, dimension),
  };
}

function pairScoreGraph(table: Float32Array, vocabularySize: number, dimension: number): Uint8Array {
  const { TensorProto } = onnx;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const tokenInput = (name: string): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: {
      tensorType: {
        elemType: TensorProto.DataType.INT64,
        shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }] },
      },
    },
  });
  const toFloat = (input: string, output: string): onnxProto.onnx.INodeProto => ({
    opType: 'Cast',
    input: [input],
    output: [output],
    attribute: [{ name: 'to', type: INT, i: TensorProto.DataType.FLOAT }],
  });
  const reduceSum = (
    input: string,
    axes: string,
    output: string,
    keep: number,
  ): onnxProto.onnx.INodeProto => ({
    opType: 'ReduceSum',
    input: [input, axes],
    output: [output],
    attribute: [{ name: 'keepdims', type: INT, i: keep }],
  });
  const reduceL2 = (input: string, output: string): onnxProto.onnx.INodeProto => ({
    opType: 'ReduceL2',
    input: [input],
    output: [output],
    attribute: [
      { name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [-1] },
      { name: 'keepdims', type: INT, i: 1 },
    ],
  });
  const graph: onnxProto.onnx.IGraphProto = {
    name: 'pair_score',
    initializer: [
      {
        name: 'embedding_table',
        dataType: TensorProto.DataType.FLOAT,
        dims: [vocabularySize, dimension],
        rawData: littleEndianBytes(table),
      },
      { name: 'last_axis', dataType: TensorProto.DataType.INT64, dims: [1], int64Data: [-1] },
      { name: 'token_axis', dataType: TensorProto.DataType.INT64, dims: [1], int64Data: [1] },
      { name: 'one', dataType: TensorProto.DataType.FLOAT, dims: [], floatData: [1] },
      { name: 'epsilon', dataType: TensorProto.DataType.FLOAT, dims: [], floatData: [1e-9] },
    ],
    input: [tokenInput('input_ids'), tokenInput('attention_mask'), tokenInput('token_type_ids')],
    output: [
      {
        name: 'logits',
        type: {
          tensorType: {
            elemType: TensorProto.DataType.FLOAT,
            shape: { dim: [{ dimParam: 'batch_size' }, { dimValue: 1 }] },
          },
        },
      },
    ],
    node: [
      {
        opType: 'Gather',
        input: ['embedding_table', 'input_ids'],
        output: ['rows'],
        attribute: [{ name: 'axis', type: INT, i: 0 }],
      },
      toFloat('attention_mask', 'mask'),
      toFloat('token_type_ids', 'types'),
      { opType: 'Sub', input: ['one', 'types'], output: ['query_types'] },
      { opType: 'Mul', input: ['mask', 'query_types'], output: ['query_mask'] },
      { opType: 'Mul', input: ['mask', 'types'], output: ['passage_mask'] },
      { opType: 'Unsqueeze', input: ['query_mask', 'last_axis'], output: ['query_column'] },
      { opType: 'Unsqueeze', input: ['passage_mask', 'last_axis'], output: ['passage_column'] },
      { opType: 'Mul', input: ['rows', 'query_column'], output: ['query_rows'] },
      { opType: 'Mul', input: ['rows', 'passage_column'], output: ['passage_rows'] },
      reduceSum('query_rows', 'token_axis', 'query_sum', 0),
      reduceSum('passage_rows', 'token_axis', 'passage_sum', 0),
      { opType: 'Mul', input: ['query_sum', 'passage_sum'], output: ['products'] },
      reduceSum('products', 'last_axis', 'dot', 1),
      reduceL2('query_sum', 'query_norm'),
      reduceL2('passage_sum', 'passage_norm'),
      { opType: 'Mul', input: ['query_norm', 'passage_norm'], output: ['norms'] },
      { opType: 'Add', input: ['norms', 'epsilon'], output: ['safe_norms'] },
      { opType: 'Div', input: ['dot', 'safe_norms'], output: ['logits'] },
    ],
  };
  return onnx.ModelProto.encode({
    irVersion: IR_VERSION,
    producerName: 'notes-agent-tiny-model',
    opsetImport: [{ domain: '', version: OPSET }],
    graph,
  }).finish();
}
