import { afterEach, describe, expect, it, vi } from 'vitest';
import { canDecodeOnPage, createPageAudioDecoder } from './page-audio-decoder';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** OfflineAudioContext as far as the decoder uses it; records how it was made. */
function stubOfflineAudioContext(channels: Float32Array[], failure?: Error) {
  const made: number[][] = [];
  class FakeOfflineAudioContext {
    constructor(...args: number[]) {
      made.push(args);
    }
    async decodeAudioData(data: ArrayBuffer) {
      if (failure) throw failure;
      expect(data.byteLength).toBe(4);
      return {
        sampleRate: made.at(-1)![2]!,
        numberOfChannels: channels.length,
        getChannelData: (index: number) => channels[index]!,
      };
    }
  }
  vi.stubGlobal('OfflineAudioContext', FakeOfflineAudioContext);
  return made;
}

describe('the page audio decoder', () => {
  it('decodes at 16 kHz and hands back copies of every channel', async () => {
    const left = Float32Array.from([0.1, 0.2]);
    const right = Float32Array.from([0.3, 0.4]);
    const made = stubOfflineAudioContext([left, right]);
    const pcm = await createPageAudioDecoder()(new ArrayBuffer(4));
    expect(made).toEqual([[1, 1, 16_000]]);
    expect(pcm.sampleRate).toBe(16_000);
    expect(pcm.channels).toEqual([left, right]);
    // Copies: the transfer must not detach the AudioBuffer's own memory.
    expect(pcm.channels[0]).not.toBe(left);
  });

  it('passes a decoding failure on (the worker reports it as UNSUPPORTED_AUDIO_FORMAT)', async () => {
    stubOfflineAudioContext([], new DOMException('Unable to decode audio data', 'EncodingError'));
    await expect(createPageAudioDecoder(48_000)(new ArrayBuffer(4))).rejects.toThrow(/Unable to decode/);
  });

  it('is only offered where Web Audio exists', () => {
    vi.stubGlobal('OfflineAudioContext', undefined);
    expect(canDecodeOnPage()).toBe(false);
    stubOfflineAudioContext([]);
    expect(canDecodeOnPage()).toBe(true);
  });
});
