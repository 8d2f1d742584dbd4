// Audio decoding: a generated ~60 s recording decoded and brought to
// 16 kHz mono in headless Chromium through the app's page-side path, against
// the same work done by the browser alone: decodeAudioData, then a plain
// OfflineAudioContext(1, n, 16000) render. Web Audio exists only in browsers,
// so this group launches Chromium as the other browser benches do (bench/chromium.ts).
import { buildDecodeHarness } from '../e2e/harness/build-harness';
import type { DecodeHarness } from '../e2e/harness/decode-harness';
import { launchChromium } from './chromium';
import type { BenchResult } from './harness';

const SOURCE_RATE = 44_100;
const CHANNELS = 2;

/** Park–Miller: the same recording on every run. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

/**
 * Speech-like stereo: a harmonic voice whose pitch glides between 100 and 250 Hz,
 * cut into syllables by a 4 Hz envelope with pauses, over a little noise; the
 * right channel is the left one slightly delayed. 16-bit WAV.
 */
export function generatedRecording(seconds: number): Uint8Array {
  const frames = Math.round(seconds * SOURCE_RATE);
  const random = lcg(20260831);
  const data = new DataView(new ArrayBuffer(44 + frames * CHANNELS * 2));
  const text = (offset: number, value: string) =>
    [...value].forEach((char, i) => data.setUint8(offset + i, char.charCodeAt(0)));
  text(0, 'RIFF');
  data.setUint32(4, 36 + frames * CHANNELS * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  data.setUint32(16, 16, true);
  data.setUint16(20, 1, true);
  data.setUint16(22, CHANNELS, true);
  data.setUint32(24, SOURCE_RATE, true);
  data.setUint32(28, SOURCE_RATE * CHANNELS * 2, true);
  data.setUint16(32, CHANNELS * 2, true);
  data.setUint16(34, 16, true);
  text(36, 'data');
  data.setUint32(40, frames * CHANNELS * 2, true);
  let phase = 0;
  const delay = 12;
  const history = new Float32Array(delay);
  for (let frame = 0; frame < frames; frame++) {
    const t = frame / SOURCE_RATE;
    const pitch = 175 + 75 * Math.sin(2 * Math.PI * 0.3 * t);
    phase += (2 * Math.PI * pitch) / SOURCE_RATE;
    let voice = 0;
    for (let harmonic = 1; harmonic <= 12; harmonic++) voice += Math.sin(harmonic * phase) / harmonic;
    const syllable =
      Math.max(0, Math.sin(2 * Math.PI * 4 * t)) * (Math.sin(2 * Math.PI * 0.1 * t) > -0.6 ? 1 : 0);
    const left = 0.25 * voice * syllable + 0.01 * (random() * 2 - 1);
    const right = history[frame % delay] ?? 0;
    history[frame % delay] = left;
    const offset = 44 + frame * CHANNELS * 2;
    data.setInt16(offset, Math.round(Math.max(-1, Math.min(1, left)) * 32767), true);
    data.setInt16(offset + 2, Math.round(Math.max(-1, Math.min(1, right)) * 32767), true);
  }
  return new Uint8Array(data.buffer);
}

export async function audioDecodeBenchmarks(scale: number): Promise<BenchResult[]> {
  const seconds = Math.max(5, Math.round(60 * scale));
  const runs = 3;
  console.log(
    `Audio decoding: a generated ${seconds} s speech-like recording (WAV, 44.1 kHz stereo 16-bit), ` +
      'decoded to 16 kHz mono in headless Chromium, median of 3 runs after a warm-up. ' +
      'Ours: the page-side path (format sniffing, decoder, mono mix, Kaiser-sinc resampler): ' +
      'once with the WAV decoder the core worker uses for WAV, once with the Web Audio decoder used for every other format. ' +
      'Baseline: decodeAudioData, then a plain OfflineAudioContext(1, n, 16000) render of the buffer.',
  );
  const wav = Buffer.from(generatedRecording(seconds)).toString('base64');
  const code = await buildDecodeHarness();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>bench</title>');
    await page.addScriptTag({ content: code });
    const time = (which: 'wav' | 'webaudio' | 'offline') =>
      page.evaluate(
        ([input, kind, count]) => {
          const harness = (globalThis as unknown as { decodeHarness: DecodeHarness }).decodeHarness;
          return kind === 'offline'
            ? harness.timeOfflineRender(input, count)
            : harness.timeAppPath(input, 'recording.wav', kind === 'webaudio', count);
        },
        [wav, which, runs] as const,
      );
    const results: BenchResult[] = [];
    for (const [kind, label] of [
      ['wav', 'WavDecoder + sinc resampler'],
      ['webaudio', 'page decodeAudioData at 16 kHz + WebAudioDecoder + toMono16k'],
    ] as const) {
      // The baseline is measured next to each of ours, as compare() does, so machine noise hits both.
      const baseline = await time('offline');
      const ours = await time(kind);
      if (Math.abs(ours.samples - baseline.samples) > 16) {
        throw new Error(`${label}: ${ours.samples} output samples, the baseline ${baseline.samples}`);
      }
      const rate = (ms: number) => (seconds / (ms / 1000)).toFixed(0);
      results.push({
        name: `decode + resample ${seconds} s to 16 kHz mono (${label})`,
        baseline: 'decodeAudioData + OfflineAudioContext render',
        ms: ours.ms,
        baselineMs: baseline.ms,
        ratio: ours.ms / baseline.ms,
        note: `${rate(ours.ms)} s of audio/s vs ${rate(baseline.ms)} s/s`,
      });
    }
    return results;
  } finally {
    await browser.close();
  }
}
