import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { buildDecodeHarness } from './harness/build-harness';
import type { DecodeHarness, HarnessDecodeResult, HarnessError } from './harness/decode-harness';

// Each committed sample (e2e/audio/generate.sh) is a 2.5 s, 1 kHz sine at
// amplitude 1/8, in the formats the app accepts. Chromium decodes them through
// the app's page-side path (sniffer, WAV or Web Audio decoder, 16 kHz mono
// resampler); the output must still be 2.5 s of 1 kHz.
const SAMPLES = [
  { file: 'tone-1khz.wav', container: 'wav', codec: 'pcm', sourceRate: 8000 },
  { file: 'tone-1khz.mp3', container: 'mp3', codec: 'mp3', sourceRate: 16000 },
  { file: 'tone-1khz.m4a', container: 'mp4', codec: 'aac', sourceRate: 16000 },
  { file: 'tone-1khz.ogg', container: 'ogg', codec: 'opus', sourceRate: 16000 },
  { file: 'tone-1khz.webm', container: 'webm', codec: 'opus', sourceRate: 16000 },
  { file: 'tone-1khz.flac', container: 'flac', codec: 'flac', sourceRate: 16000 },
] as const;

const RATE = 16_000;
let harnessCode = '';

test.beforeAll(async () => {
  harnessCode = await buildDecodeHarness();
});

test.beforeEach(async ({ page }) => {
  await page.setContent('<!doctype html><title>decode</title>');
  await page.addScriptTag({ content: harnessCode });
});

function bytesOf(file: string): number[] {
  return Array.from(readFileSync(new URL(`./audio/${file}`, import.meta.url)));
}

async function decodeInPage(page: Page, file: string): Promise<HarnessDecodeResult | HarnessError> {
  return page.evaluate(
    ([bytes, name]) =>
      (globalThis as unknown as { decodeHarness: DecodeHarness }).decodeHarness.decode(bytes, name),
    [bytesOf(file), file] as const,
  );
}

/** Frequency from interpolated upward zero crossings. */
function frequencyOf(samples: number[]): number {
  const crossings: number[] = [];
  for (let index = 1; index < samples.length; index++) {
    const a = samples[index - 1]!;
    const b = samples[index]!;
    if (a < 0 && b >= 0) crossings.push(index - 1 + a / (a - b));
  }
  return ((crossings.length - 1) * RATE) / (crossings.at(-1)! - crossings[0]!);
}

function rms(samples: number[]): number {
  return Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);
}

for (const sample of SAMPLES) {
  test(`decodes ${sample.file} to 16 kHz mono: 2.5 s of 1 kHz`, async ({ page }) => {
    const result = await decodeInPage(page, sample.file);
    if ('code' in result) throw new Error(`${sample.file}: ${result.code}: ${result.message}`);
    expect(result).toMatchObject({
      container: sample.container,
      codec: sample.codec,
      sourceRate: sample.sourceRate,
    });
    expect(result.sourceSeconds).toBeCloseTo(2.5, 1);
    expect(result.samples.length / RATE).toBeCloseTo(2.5, 1);
    // Away from the encoders' fade-in/out at the edges.
    const middle = result.samples.slice(0.5 * RATE, 2 * RATE);
    expect(frequencyOf(middle)).toBeCloseTo(1000, 0);
    expect(rms(middle) * Math.SQRT2).toBeCloseTo(0.125, 1);
  });
}

test('a corrupt MP3 is refused with UNSUPPORTED_AUDIO_FORMAT and a message a person can act on', async ({
  page,
}) => {
  const result = await decodeInPage(page, 'corrupt.mp3');
  expect(result).toEqual({
    code: 'UNSUPPORTED_AUDIO_FORMAT',
    message: 'This MP3 file could not be decoded: it is damaged or incomplete.',
  });
});
