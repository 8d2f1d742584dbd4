import { describe, expect, it } from 'vitest';
import { mixToMono, resample, Resampler, TARGET_SAMPLE_RATE, toMono16k } from './resample';
import { estimateFrequency, middle, rms, sine, toneAmplitude } from './__fixtures__/synthetic-audio';

describe('resample', () => {
  it.each([44_100, 48_000, 22_050, 8_000, 32_000, 11_025])(
    'keeps a 440 Hz tone at %i Hz -> 16 kHz within 1 Hz and 2 %% amplitude',
    (rate) => {
      const input = sine(440, 2, rate, 0.5);
      const output = resample(input, rate, TARGET_SAMPLE_RATE);
      expect(output.length).toBe(Math.ceil((input.length * TARGET_SAMPLE_RATE) / rate));
      const steady = middle(output, TARGET_SAMPLE_RATE);
      expect(Math.abs(estimateFrequency(steady, TARGET_SAMPLE_RATE) - 440)).toBeLessThan(1);
      expect(Math.abs(toneAmplitude(steady) / 0.5 - 1)).toBeLessThan(0.02);
    },
  );

  it.each([44_100, 48_000])(
    'attenuates a 12 kHz tone at %i Hz (it would alias to 4 kHz) by more than 60 dB',
    (rate) => {
      const output = resample(sine(12_000, 1, rate, 0.5), rate, TARGET_SAMPLE_RATE);
      const residual = toneAmplitude(middle(output, TARGET_SAMPLE_RATE)) / 0.5;
      expect(residual).toBeLessThan(1e-3);
    },
  );

  it('a plain decimation (every third sample) would alias: the test can tell the difference', () => {
    const input = sine(12_000, 1, 48_000, 0.5);
    const naive = new Float32Array(Math.floor(input.length / 3)).map((_, index) => input[index * 3] ?? 0);
    expect(toneAmplitude(middle(naive, TARGET_SAMPLE_RATE)) / 0.5).toBeGreaterThan(0.5);
  });

  it('gives the same samples when fed in uneven chunks', () => {
    const input = sine(440, 1.3, 44_100, 0.4);
    const whole = resample(input, 44_100);
    const resampler = new Resampler(44_100);
    const parts: Float32Array[] = [];
    for (let start = 0, size = 1; start < input.length; start += size, size = 1 + ((size * 7 + 3) % 5000)) {
      parts.push(resampler.process(input.subarray(start, start + size)));
    }
    parts.push(resampler.flush());
    const chunked = Float32Array.from(parts.flatMap((part) => [...part]));
    expect(chunked.length).toBe(whole.length);
    expect(chunked).toEqual(whole);
  });

  it('handles rates with no small common divisor (rows computed per sample)', () => {
    const output = resample(sine(440, 1, 47_999, 0.5), 47_999);
    const steady = middle(output, TARGET_SAMPLE_RATE);
    expect(Math.abs(estimateFrequency(steady, TARGET_SAMPLE_RATE) - 440)).toBeLessThan(1);
    expect(Math.abs(toneAmplitude(steady) / 0.5 - 1)).toBeLessThan(0.02);
  });

  it('returns a copy at the same rate and rejects nonsense rates', () => {
    const input = sine(440, 0.1, 16_000);
    const output = resample(input, 16_000);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
    expect(() => new Resampler(0)).toThrow(RangeError);
    expect(() => new Resampler(44_100.5)).toThrow(RangeError);
  });

  it('handles empty and tiny inputs', () => {
    expect(resample(new Float32Array(0), 44_100).length).toBe(0);
    expect(resample(new Float32Array([1]), 48_000).length).toBe(1);
  });
});

describe('mixToMono', () => {
  it('averages channels, so opposite channels cancel and equal channels keep their level', () => {
    const left = sine(440, 0.5, 16_000, 0.5);
    const right = left.map((value) => -value);
    expect(rms(mixToMono([left, right]))).toBe(0);
    expect(toneAmplitude(mixToMono([left, left]))).toBeCloseTo(toneAmplitude(left), 6);
    expect(mixToMono([])).toHaveLength(0);
  });

  it('toMono16k mixes then resamples', () => {
    const left = sine(440, 1, 48_000, 0.5);
    const mono = toMono16k({ sampleRate: 48_000, channels: [left, left] });
    expect(mono.length).toBe(16_000);
    expect(Math.abs(estimateFrequency(middle(mono, 16_000), 16_000) - 440)).toBeLessThan(1);
  });
});
