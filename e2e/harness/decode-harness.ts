// Test-only page entry: the app's decoding path (sniff, WAV decoder or the
// page's Web Audio decoder, mix to mono, resample to 16 kHz) exposed on `window` so the
// Playwright spec and the bench can drive it without UI. It is bundled on the
// fly by build-harness.ts and injected into a blank page; the production build
// never sees it.
import { AppError } from '../../src/contracts/errors';
import {
  AudioDecoderChain,
  WavDecoder,
  WebAudioDecoder,
  decodeAudio,
  type DecodedAudio,
} from '../../src/media/audio-decoders';
import { TARGET_SAMPLE_RATE, toMono16k } from '../../src/media/resample';
import { createPageAudioDecoder } from '../../src/ui/api/page-audio-decoder';

export interface HarnessDecodeResult {
  container: string;
  codec: string;
  sourceRate: number;
  sourceSeconds: number;
  samples: number[];
}

export interface HarnessError {
  code: string;
  message: string;
}

// As in the app: the page decodes with Web Audio (src/ui/api/page-audio-decoder.ts)
// and the core worker reads that PCM through WebAudioDecoder, WAV with its own decoder.
const pageDecode = createPageAudioDecoder(TARGET_SAMPLE_RATE);
const webAudio = new WebAudioDecoder(async (data) => {
  const pcm = await pageDecode(data);
  return {
    sampleRate: pcm.sampleRate,
    numberOfChannels: pcm.channels.length,
    length: pcm.channels[0]?.length ?? 0,
    getChannelData: (channel: number) => pcm.channels[channel]!,
  };
});
const chain = new AudioDecoderChain([new WavDecoder(), webAudio]);

async function toPcm(bytes: Uint8Array, name: string, viaWebAudio = false) {
  const { format, audio } = await decodeAudio(bytes, { name }, viaWebAudio ? webAudio : chain);
  return { format, audio, mono: toMono16k(audio) };
}

/** What the spec checks: the 16 kHz mono samples and the source's duration. */
async function decode(bytes: number[], name: string): Promise<HarnessDecodeResult | HarnessError> {
  try {
    const { format, audio, mono } = await toPcm(Uint8Array.from(bytes), name);
    return {
      container: format.container,
      codec: format.codec,
      sourceRate: audio.sampleRate,
      sourceSeconds: seconds(audio),
      samples: Array.from(mono),
    };
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
}

function seconds(audio: DecodedAudio): number {
  return (audio.channels[0]?.length ?? 0) / audio.sampleRate;
}

/** Bench, app side: the whole path, `runs` times; returns ms per run (median). */
async function timeAppPath(bytes: Uint8Array, name: string, viaWebAudio: boolean, runs: number) {
  return median(runs, async () => {
    const { mono } = await toPcm(bytes, name, viaWebAudio);
    return mono.length;
  });
}

/** Bench, baseline: decodeAudioData then a plain OfflineAudioContext(1, n, 16000) render. */
async function timeOfflineRender(bytes: Uint8Array, runs: number) {
  return median(runs, async () => {
    const probe = new OfflineAudioContext(1, 1, TARGET_SAMPLE_RATE);
    const buffer = await probe.decodeAudioData(bytes.slice().buffer);
    const length = Math.ceil(buffer.duration * TARGET_SAMPLE_RATE);
    const context = new OfflineAudioContext(1, length, TARGET_SAMPLE_RATE);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    source.start();
    const rendered = await context.startRendering();
    return rendered.length;
  });
}

async function median(runs: number, work: () => Promise<number>) {
  const outputs = [await work()];
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    outputs.push(await work());
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, samples: outputs[0] ?? 0 };
}

/** Bench input arrives base64-encoded (page.evaluate arguments are JSON). */
function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

const harness = {
  decode,
  timeAppPath: (base64: string, name: string, viaWebAudio: boolean, runs: number) =>
    timeAppPath(fromBase64(base64), name, viaWebAudio, runs),
  timeOfflineRender: (base64: string, runs: number) => timeOfflineRender(fromBase64(base64), runs),
};

export type DecodeHarness = typeof harness;
(globalThis as unknown as { decodeHarness: DecodeHarness }).decodeHarness = harness;
