/** Tones one after the other ([frequency, seconds]) as 16 kHz mono 16-bit WAV. */
export function tonesWav(parts: ReadonlyArray<readonly [number, number]>, amplitude = 10_000): Buffer {
  const rate = 16_000;
  const tones = parts.flatMap(([frequency, seconds]) => Array<number>(seconds * rate).fill(frequency));
  const frames = tones.length;
  const wav = Buffer.alloc(44 + frames * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + frames * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(frames * 2, 40);
  for (let i = 0; i < frames; i++)
    wav.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * tones[i]! * i) / rate)), 44 + i * 2);
  return wav;
}

/** `seconds` of silence as 16 kHz mono 16-bit WAV. */
export function silenceWav(seconds: number): Buffer {
  return tonesWav([[0, seconds]], 0);
}
