import { describe, expect, it } from 'vitest';
import { jobAudioName, titleFromAudioName, whisperName } from './job-labels';

describe('whisperName', () => {
  it('names the catalog sizes, English-only variants and larger ones', () => {
    expect(whisperName('onnx-community/whisper-tiny')).toBe('Whisper tiny');
    expect(whisperName('onnx-community/whisper-base')).toBe('Whisper base');
    expect(whisperName('onnx-community/whisper-small.en')).toBe('Whisper small');
    expect(whisperName('onnx-community/whisper-large-v3-turbo')).toBe('Whisper large-v3-turbo');
    expect(whisperName('whisper-medium')).toBe('Whisper medium');
  });

  it('leaves other models to the core label', () => {
    expect(whisperName('onnx-community/moonshine-tiny')).toBeNull();
    expect(whisperName('acme/whisper-tiny-finetuned-de')).toBeNull();
  });
});

describe('jobAudioName', () => {
  const names = { attachment_1: 'monday.wav' };

  it('prefers the name the file had when this job was made', () => {
    const job = { attachment_id: 'attachment_1', metadata: { audio_name: 'tuesday.wav' } };
    expect(jobAudioName(job, names)).toBe('tuesday.wav');
  });

  it('falls back to the stored audio, then to the id (older jobs, a blank or odd name)', () => {
    expect(jobAudioName({ attachment_id: 'attachment_1' }, names)).toBe('monday.wav');
    expect(jobAudioName({ attachment_id: 'attachment_1', metadata: { audio_name: ' ' } }, names)).toBe(
      'monday.wav',
    );
    expect(jobAudioName({ attachment_id: 'attachment_1', metadata: { audio_name: 7 } }, names)).toBe(
      'monday.wav',
    );
    expect(jobAudioName({ attachment_id: 'attachment_2', metadata: {} }, names)).toBe('attachment_2');
  });
});

describe('titleFromAudioName', () => {
  it('drops the extension, as the core does when it names the note', () => {
    expect(titleFromAudioName('进程调度 lecture-03.m4a')).toBe('进程调度 lecture-03');
    expect(titleFromAudioName('tone-1khz.wav')).toBe('tone-1khz');
    expect(titleFromAudioName('notes v2.final draft')).toBe('notes v2.final draft');
  });
});
