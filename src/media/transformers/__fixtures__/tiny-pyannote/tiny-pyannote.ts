import {
  encodeModel,
  floatTensor,
  graph,
  node,
  valueInfo,
  type GraphParts,
} from '../tiny-whisper/onnx-builder';

/**
 * A tiny pyannote-shaped segmentation model that transformers.js loads and runs
 * like pyannote segmentation 3.0 (`PyAnnoteForAudioFrameClassification` with
 * `PyAnnoteProcessor`), written by the tests themselves (about 30 kB).
 *
 * What is real: the files (`config.json` with `model_type: "pyannote"`,
 * `preprocessor_config.json` with the frame `offset`/`step` transformers.js'
 * post-processor reads, `onnx/model.onnx`), the input (`input_values`
 * [batch, 1, samples] of 16 kHz audio) and the output (`logits`
 * [batch, frames, 7] over pyannote's powerset classes: no one, speakers 0, 1,
 * 2 alone, pairs 01, 02, 12). What is not: instead of SincNet + LSTM, two
 * Hann-windowed band filters. Speaker 0 is a tone at `TINY_PYANNOTE_VOICES[0]`
 * Hz and speaker 1 one at `TINY_PYANNOTE_VOICES[1]` Hz: the logit of class 1
 * (2) is the log energy in speaker 0's (1's) band, class 0 (no one) a fixed
 * threshold, the rest far below. So the model "hears" who talks in
 * synthetic audio, and its output depends on the audio, not on a script.
 */

export const TINY_PYANNOTE_MODEL_ID = 'test/tiny-pyannote';

/** Tone frequencies (Hz) that the model hears as local speakers 0 and 1. */
export const TINY_PYANNOTE_VOICES = [250, 1000] as const;

const SAMPLE_RATE = 16_000;
/** Filter length: 50 ms, 20 Hz wide bins, far narrower than the voices are apart. */
const KERNEL = 800;
/** Frame step: pyannote segmentation 3.0's (270 samples, about 17 ms). */
const STEP = 270;
const CLASSES = 7;
/** Band energy below this (a tone of amplitude 0.01) is no one talking. */
const SILENCE_LOG_ENERGY = Math.log(1e-4);
const ABSENT_LOGIT = -100;

export type TinyPyannoteFiles = Record<string, string | Uint8Array>;

export function buildTinyPyannote(): TinyPyannoteFiles {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'config.json': json({
      architectures: ['PyAnnoteForAudioFrameClassification'],
      model_type: 'pyannote',
      num_labels: CLASSES,
    }),
    'preprocessor_config.json': json({
      feature_extractor_type: 'PyAnnoteFeatureExtractor',
      processor_class: 'PyAnnoteProcessor',
      feature_size: 1,
      sampling_rate: SAMPLE_RATE,
      padding_side: 'right',
      padding_value: 0,
      return_attention_mask: false,
      // Frames = (samples - offset) / step, as transformers.js' post-processor counts them.
      offset: KERNEL,
      step: STEP,
    }),
    'onnx/model.onnx': encodeModel(graph(segmentationGraph())),
  };
}

/** input_values -> band filters (cos, sin per voice) -> energy -> log -> logits per frame. */
function segmentationGraph(): GraphParts {
  const filters = new Float32Array(4 * KERNEL);
  let windowSum = 0;
  for (let n = 0; n < KERNEL; n++) windowSum += hann(n);
  TINY_PYANNOTE_VOICES.forEach((frequency, voice) => {
    for (let n = 0; n < KERNEL; n++) {
      const phase = (2 * Math.PI * frequency * n) / SAMPLE_RATE;
      // Scaled so that a tone of amplitude a gives an energy of about a².
      const weight = (2 * hann(n)) / windowSum;
      filters[2 * voice * KERNEL + n] = weight * Math.cos(phase);
      filters[(2 * voice + 1) * KERNEL + n] = weight * Math.sin(phase);
    }
  });
  // cos² + sin² per voice.
  const pairSum = new Float32Array([1, 1, 0, 0, 0, 0, 1, 1]);
  // [log energy 0, log energy 1] -> 7 logits: class 1 = voice 0, class 2 = voice 1.
  const classes = new Float32Array(2 * CLASSES);
  classes[0 * CLASSES + 1] = 1;
  classes[1 * CLASSES + 2] = 1;
  const bias = new Float32Array(CLASSES).fill(ABSENT_LOGIT);
  bias[0] = SILENCE_LOG_ENERGY;
  bias[1] = 0;
  bias[2] = 0;
  return {
    name: 'tiny_pyannote',
    inputs: [valueInfo('input_values', 'float32', ['batch_size', 1, 'num_samples'])],
    outputs: [valueInfo('logits', 'float32', ['batch_size', 'num_frames', CLASSES])],
    initializers: [
      floatTensor('bands.weight', [4, 1, KERNEL], filters),
      floatTensor('energy.weight', [2, 4, 1], pairSum),
      floatTensor('epsilon', [], new Float32Array([1e-8])),
      floatTensor('classifier.weight', [2, CLASSES], classes),
      floatTensor('classifier.bias', [CLASSES], bias),
    ],
    nodes: [
      node('Conv', ['input_values', 'bands.weight'], ['bands'], { kernel_shape: [KERNEL], strides: [STEP] }),
      node('Mul', ['bands', 'bands'], ['power']),
      node('Conv', ['power', 'energy.weight'], ['energy'], { kernel_shape: [1] }),
      node('Add', ['energy', 'epsilon'], ['energy_floor']),
      node('Log', ['energy_floor'], ['log_energy']),
      node('Transpose', ['log_energy'], ['frames'], { perm: [0, 2, 1] }),
      node('MatMul', ['frames', 'classifier.weight'], ['scores']),
      node('Add', ['scores', 'classifier.bias'], ['logits']),
    ],
  };
}

function hann(n: number): number {
  return 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / (KERNEL - 1));
}
