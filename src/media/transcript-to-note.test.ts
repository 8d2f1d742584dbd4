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

/** The note's paragraphs after its first line, the header about the whole recording. */
function paragraphsOf(body: string): string[] {
  return body.trim().split('\n\n').slice(1);
}

/** Each citation's span, header first. */
function spans(note: { block_citations: { start_time: number; end_time: number }[] }): [number, number][] {
  return note.block_citations.map((citation) => [citation.start_time, citation.end_time]);
}

describe('transcriptToNote', () => {
  it('writes speaker turns with timestamps and labels; one citation per block, in order', () => {
    const note = transcriptToNote(job(SEGMENTS), { title: '操作系统课程录音', folder: '课程/操作系统' });
    expect(note.title).toBe('操作系统课程录音');
    expect(note.folder).toBe('课程/操作系统');
    expect(note.body).toBe(
      [
        '01:12',
        '[00:00] **SPEAKER_00:** Welcome to the operating systems course. Today: process scheduling.',
        '[00:10] **SPEAKER_01:** Can you explain round robin?',
        '[01:05] **SPEAKER_00:** Sure, each process gets a time slice.',
      ].join('\n\n') + '\n',
    );
    const blocks = parseBlocks(note.body);
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph']);
    expect(note.block_citations).toEqual([
      { source_audio: 'attachment_123', start_time: 0.5, end_time: 72.25, speaker: null },
      { source_audio: 'attachment_123', start_time: 0.5, end_time: 9.5, speaker: 'SPEAKER_00' },
      { source_audio: 'attachment_123', start_time: 10, end_time: 14, speaker: 'SPEAKER_01' },
      { source_audio: 'attachment_123', start_time: 65, end_time: 72.25, speaker: 'SPEAKER_00' },
    ]);
  });

  it('starts with a line naming the audio, the day, its length and language, cited to the whole recording', () => {
    const createdAt = '2026-03-02T12:00:00.000Z';
    const day = new Date(createdAt);
    const two = (value: number) => String(value).padStart(2, '0');
    const date = `${day.getFullYear()}-${two(day.getMonth() + 1)}-${two(day.getDate())}`;
    const note = transcriptToNote(
      { ...job(SEGMENTS), language: 'zh', created_at: createdAt },
      {},
      { audioName: 'os_lecture 03.m4a' },
    );
    expect(note.body.split('\n\n')[0]).toBe(`os\\_lecture 03.m4a · ${date} · 01:12 · zh`);
    expect(note.block_citations[0]).toEqual({
      source_audio: 'attachment_123',
      start_time: 0.5,
      end_time: 72.25,
      speaker: null,
    });
    expect(note.title).toBe('os_lecture 03');
  });

  it('groups Chinese segments into paragraphs joined without spaces, each citing exactly its segments', () => {
    const sentences = Array.from({ length: 20 }, (_, index) =>
      segment(
        index + 1,
        index * 3,
        index * 3 + 3,
        index % 2 === 0 ? `进程调度第${index + 1}点，` : '时间片轮转。',
      ),
    );
    const note = transcriptToNote(job(sentences), { include_speakers: false });
    const paragraphs = paragraphsOf(note.body);
    // 45 s make a paragraph long enough; it ends at the next sentence end (segment 16 ends at 48 s).
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toBe(
      '[00:00] ' +
        sentences
          .slice(0, 16)
          .map((s) => s.text)
          .join(''),
    );
    expect(paragraphs[1]).toBe(
      '[00:48] ' +
        sentences
          .slice(16)
          .map((s) => s.text)
          .join(''),
    );
    expect(spans(note)).toEqual([
      [0, 60],
      [0, 48],
      [48, 60],
    ]);
    expect(parseBlocks(note.body)).toHaveLength(note.block_citations.length);
  });

  it('groups English segments with spaces; a pause after a sentence starts a paragraph, one mid-sentence does not', () => {
    const lecture = [
      segment(1, 0, 3, 'Welcome back.'),
      segment(2, 3, 6, 'Today we look at'),
      // A 4 s pause in the middle of a sentence keeps the paragraph going.
      segment(3, 10, 13, 'process scheduling.'),
      // A 3 s pause after a sentence ends the paragraph.
      segment(4, 16, 19, 'First, round robin.'),
      segment(5, 19, 22, 'Each process gets a slice'),
      // A long silence ends it even mid-sentence.
      segment(6, 31, 34, 'of time.'),
    ];
    const note = transcriptToNote(job(lecture), { include_timestamps: false });
    expect(paragraphsOf(note.body)).toEqual([
      'Welcome back. Today we look at process scheduling.',
      'First, round robin. Each process gets a slice',
      'of time.',
    ]);
    expect(spans(note)).toEqual([
      [0, 34],
      [0, 13],
      [16, 22],
      [31, 34],
    ]);
    expect(note.block_citations.every((citation) => citation.speaker === null)).toBe(true);
  });

  it('joins mixed Chinese and English: no space between Chinese, a space next to English', () => {
    const mixed = [
      segment(1, 0, 2, '今天讲 round robin'),
      segment(2, 2, 4, '调度算法，'),
      segment(3, 4, 6, 'time slice'),
      segment(4, 6, 8, '就是时间片。'),
    ];
    const note = transcriptToNote(job(mixed), {});
    expect(paragraphsOf(note.body)).toEqual(['[00:00] 今天讲 round robin 调度算法，time slice 就是时间片。']);
    expect(spans(note)).toEqual([
      [0, 8],
      [0, 8],
    ]);
  });

  it('bounds a paragraph that never reaches a sentence end, so a citation stays short enough to replay', () => {
    const rambling = Array.from({ length: 60 }, (_, index) =>
      segment(index + 1, index * 4, index * 4 + 4, `and then point ${index + 1}`),
    );
    const note = transcriptToNote(job(rambling), {});
    const blocks = parseBlocks(note.body);
    expect(blocks.length).toBeGreaterThan(3);
    expect(note.block_citations).toHaveLength(blocks.length);
    const [, ...paragraphs] = note.block_citations;
    for (const citation of paragraphs)
      expect(citation.end_time - citation.start_time).toBeLessThanOrEqual(90);
    // Consecutive paragraphs meet: no segment is lost or cited twice.
    for (let index = 1; index < paragraphs.length; index++)
      expect(paragraphs[index]!.start_time).toBe(paragraphs[index - 1]!.end_time);
    expect(paragraphs[0]!.start_time).toBe(0);
    expect(paragraphs.at(-1)!.end_time).toBe(240);
  });

  it('timestamps only when the transcript has no speakers; the title comes from the audio name', () => {
    const plain = SEGMENTS.map((s) => ({ ...s, speaker: null }));
    const note = transcriptToNote(job(plain), { include_speakers: true }, { audioName: 'lecture-03.m4a' });
    expect(note.title).toBe('lecture-03');
    expect(paragraphsOf(note.body)).toEqual([
      '[00:00] Welcome to the operating systems course. Today: process scheduling. Can you explain round robin?',
      '[01:05] Sure, each process gets a time slice.',
    ]);
    expect(note.block_citations.every((citation) => citation.speaker === null)).toBe(true);
  });

  it('escapes model text so every paragraph stays exactly one paragraph block', () => {
    // Long silences between them keep each segment a paragraph of its own.
    const tricky = [
      '# not a heading',
      '- not a list',
      '1. not ordered',
      '> not a quote',
      '```js',
      '---',
      '<div>html</div>',
      '$$ x $$ and *stars* | pipes',
      'line one\n\nline two',
      '    indented code?',
    ].map((text, index) => segment(index + 1, index * 10, index * 10 + 1, text));
    for (const options of [{ include_timestamps: false }, { include_timestamps: true }]) {
      const note = transcriptToNote(job(tricky), { ...options, include_speakers: false });
      const blocks = parseBlocks(note.body);
      expect(blocks.map((block) => block.type)).toEqual(['paragraph', ...tricky.map(() => 'paragraph')]);
      expect(note.block_citations.map((citation) => citation.start_time)).toEqual([
        0,
        ...tricky.map((s) => s.start_time),
      ]);
    }
    // Run together, the same text is still one paragraph.
    const together = tricky.map((s, index) => ({ ...s, start_time: index, end_time: index + 1 }));
    const note = transcriptToNote(job(together), { include_speakers: false });
    expect(parseBlocks(note.body).map((block) => block.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('splits a long turn of one speaker into several cited paragraphs', () => {
    const monologue = Array.from({ length: 30 }, (_, index) =>
      segment(index + 1, index * 10, index * 10 + 9, `Point ${index + 1} of the lecture.`, 'SPEAKER_00'),
    );
    const note = transcriptToNote(job(monologue), {});
    const blocks = parseBlocks(note.body);
    expect(blocks.length).toBeGreaterThan(3);
    expect(note.block_citations).toHaveLength(blocks.length);
    const [, ...turns] = note.block_citations;
    for (const citation of turns) {
      expect(citation.end_time - citation.start_time).toBeLessThanOrEqual(120);
    }
    expect(turns[1]?.start_time).toBe(turns[0]!.end_time + 1);
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
