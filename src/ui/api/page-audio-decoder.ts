import * as Comlink from 'comlink';

/**
 * Web Audio exists only on the main thread, so the page decodes compressed
 * audio (MP3, M4A, OGG, WebM, FLAC) for the core worker's transcriptions:
 * `decodeAudioData` at `sampleRate` (the browser resamples while decoding),
 * every channel copied out and transferred back, never cloned. Errors reach the
 * worker as they are; it reports them as UNSUPPORTED_AUDIO_FORMAT.
 */
export function createPageAudioDecoder(sampleRate = 16_000) {
  return async (data: ArrayBuffer): Promise<{ sampleRate: number; channels: Float32Array[] }> => {
    const context = new OfflineAudioContext(1, 1, sampleRate);
    const buffer = await context.decodeAudioData(data);
    const channels = Array.from({ length: buffer.numberOfChannels }, (_, index) =>
      Float32Array.from(buffer.getChannelData(index)),
    );
    return Comlink.transfer(
      { sampleRate: buffer.sampleRate, channels },
      channels.map((channel) => channel.buffer),
    );
  };
}

export function canDecodeOnPage(): boolean {
  return typeof OfflineAudioContext !== 'undefined';
}
