import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { parseBlocks } from '../core/blocks';
import { formatTimestamp, transcriptToNote } from './transcript-to-note';
import type { TranscriptSegment } from '../contracts';

function segment(
  index: number,
  start: number,
  end: number,
  text: string,
  speaker: string | null = null,
): TranscriptSegment {
  return {
    segment_id: `segment_${String(index).padStart(3, '0')}`,
    speaker,
    start_time: start,
    end_time: end,
    text,
    confidence: null,
    words: [],
  };
}

const SEGMENTS = [
  segment(1, 0.5, 4, 'Welcome to the operating systems course.', 'SPEAKER_00'),
  segment(2, 4, 9.5, 'Today: process scheduling.', 'SPEAKER_00'),
  segment(3, 10, 14, 'Can you explain round robin?', 'SPEAKER_01'),
  segment(4, 65, 72.25, 'Sure, each process gets a time slice.', 'SPEAKER_00'),
];

const job = (segments: TranscriptSegment[], status: 'completed' | 'running' = 'completed') => ({
  job_id: 'job_1',
  status,
  attachment_id: 'attachment_123',
  segments,
});

describe('transcriptToNote', () => {
  it('writes speaker turns with timestamps and labels; one citation per block, in order', () => {
    const note = transcriptToNote(job(SEGMENTS), { title: '操作系统课程录音', folder: '课程/操作系统' });
    expect(note.title).toBe('操作系统课程录音');
    expect(note.folder).toBe('课程/操作系统');
    expect(note.body).toBe(
      [
        '[00:00] **SPEAKER_00:** Welcome to the operating systems course. Today: process scheduling.',
        '[00:10] **SPEAKER_01:** Can you explain round robin?',
        '[01:05] **SPEAKER_00:** Sure, each process gets a time slice.',
      ].join('\n\n') + '\n',
    );
    const blocks = parseBlocks(note.body);
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'paragraph', 'paragraph']);
    expect(note.block_citations).toEqual([
      { source_audio: 'attachment_123', start_time: 0.5, end_time: 9.5, speaker: 'SPEAKER_00' },
      { source_audio: 'attachment_123', start_time: 10, end_time: 14, speaker: 'SPEAKER_01' },
      { source_audio: 'attachment_123', start_time: 65, end_time: 72.25, speaker: 'SPEAKER_00' },
    ]);
  });

  it('without timestamps and speakers: a paragraph per segment, citations still carry the speaker', () => {
    const note = transcriptToNote(job(SEGMENTS), { include_timestamps: false, include_speakers: false });
    expect(note.body.split('\n\n').map((paragraph) => paragraph.trim())).toEqual(SEGMENTS.map((s) => s.text));
    expect(parseBlocks(note.body)).toHaveLength(4);
    expect(
      note.block_citations.map((citation) => [citation.start_time, citation.end_time, citation.speaker]),
    ).toEqual(SEGMENTS.map((s) => [s.start_time, s.end_time, s.speaker]));
    expect(note.title).toBe('Transcript');
  });

  it('timestamps only, per segment, when the transcript has no speakers', () => {
    const plain = SEGMENTS.map((s) => ({ ...s, speaker: null }));
    const note = transcriptToNote(job(plain), { include_speakers: true }, { audioName: 'lecture-03.m4a' });
    expect(note.title).toBe('lecture-03');
    expect(note.body.split('\n\n')[1]).toBe('[00:04] Today: process scheduling.');
    expect(note.block_citations).toHaveLength(4);
    expect(note.block_citations.every((citation) => citation.speaker === null)).toBe(true);
  });

  it('escapes model text so every segment stays exactly one paragraph block', () => {
    const tricky = [
      segment(1, 0, 1, '# not a heading'),
      segment(2, 1, 2, '- not a list'),
      segment(3, 2, 3, '1. not ordered'),
      segment(4, 3, 4, '> not a quote'),
      segment(5, 4, 5, '```js'),
      segment(6, 5, 6, '---'),
      segment(7, 6, 7, '<div>html</div>'),
      segment(8, 7, 8, '$$ x $$ and *stars* | pipes'),
      segment(9, 8, 9, 'line one\n\nline two'),
      segment(10, 9, 10, '    indented code?'),
    ];
    for (const options of [{ include_timestamps: false }, { include_timestamps: true }]) {
      const note = transcriptToNote(job(tricky), { ...options, include_speakers: false });
      const blocks = parseBlocks(note.body);
      expect(blocks.map((block) => block.type)).toEqual(tricky.map(() => 'paragraph'));
      expect(note.block_citations.map((citation) => citation.start_time)).toEqual(
        tricky.map((s) => s.start_time),
      );
    }
  });

  it('splits a long turn of one speaker into several cited paragraphs', () => {
    const monologue = Array.from({ length: 30 }, (_, index) =>
      segment(index + 1, index * 10, index * 10 + 9, `Point ${index + 1} of the lecture.`, 'SPEAKER_00'),
    );
    const note = transcriptToNote(job(monologue), {});
    const blocks = parseBlocks(note.body);
    expect(blocks.length).toBeGreaterThan(2);
    expect(note.block_citations).toHaveLength(blocks.length);
    for (const citation of note.block_citations) {
      expect(citation.end_time - citation.start_time).toBeLessThanOrEqual(120);
    }
    expect(note.block_citations[1]?.start_time).toBe(note.block_citations[0]!.end_time + 1);
  });

  it('an empty transcript gives an empty body and no citations', () => {
    expect(transcriptToNote(job([]), {})).toMatchObject({ body: '', block_citations: [] });
  });

  it.each(['queued', 'running', 'failed', 'cancelled'] as const)(
    'a %s job is TRANSCRIPT_NOT_READY (409)',
    (status) => {
      let caught: unknown;
      try {
        transcriptToNote({ ...job(SEGMENTS), status } as ReturnType<typeof job>, {});
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect(caught).toMatchObject({ code: 'TRANSCRIPT_NOT_READY', status: 409, details: { status } });
    },
  );

  it('rejects bad options with VALIDATION_FAILED', () => {
    expect(() => transcriptToNote(job(SEGMENTS), { template_id: 'nope' as never })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});

describe('formatTimestamp', () => {
  it('is mm:ss under an hour, h:mm:ss above', () => {
    expect(formatTimestamp(0)).toBe('00:00');
    expect(formatTimestamp(65.9)).toBe('01:05');
    expect(formatTimestamp(3599)).toBe('59:59');
    expect(formatTimestamp(3600 + 62)).toBe('1:01:02');
  });
});
