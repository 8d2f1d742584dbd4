import { AppError, parseInput } from '../contracts';
import { parseBlocks } from '../core/blocks';
import {
  transcriptNoteSchema,
  type TranscriptionJob,
  type TranscriptNoteInput,
  type TranscriptNoteTemplate,
  type TranscriptSegment,
} from '../contracts';
import { joinTexts } from './windowing';

/**
 * §5.4: a completed transcript to a note body in which every block carries a
 * citation (`source_audio`, `start_time`, `end_time`, `speaker`) back to the
 * audio, so search and agent answers can jump to the moment it was said.
 */

export interface TranscriptBlockCitation {
  /** The attachment id of the audio. */
  source_audio: string;
  start_time: number;
  end_time: number;
  speaker: string | null;
}

export interface TranscriptNoteDraft {
  title: string;
  folder: string;
  body: string;
  /**
   * One per block of `body` as `parseBlocks` splits it, in block order, so the
   * i-th block id the repository assigns gets the i-th citation.
   */
  block_citations: TranscriptBlockCitation[];
}

/** Speaker turns longer than this are split into several paragraphs (finer citations). */
const MAX_TURN_SECONDS = 120;
const MAX_TURN_CHARACTERS = 1500;

/**
 * Without speakers, Whisper's 2-5 s segments are grouped into paragraphs a
 * reader can follow: a paragraph ends at a sentence end once it is long enough
 * or after a pause, at any long silence, and before it grows past the bounds
 * (so a citation still points at a stretch short enough to replay).
 */
const PARAGRAPH_TARGET_SECONDS = 45;
const PARAGRAPH_TARGET_CHARACTERS = 280;
const PARAGRAPH_PAUSE_SECONDS = 2;
const PARAGRAPH_SILENCE_SECONDS = 8;
const MAX_PARAGRAPH_SECONDS = 90;
const MAX_PARAGRAPH_CHARACTERS = 600;

/** Sentence-final punctuation, Latin or CJK, optionally followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?。！？…]["'”’」』)）]*$/u;

type TranscriptSource = Pick<TranscriptionJob, 'job_id' | 'status' | 'attachment_id' | 'segments'> &
  Partial<Pick<TranscriptionJob, 'language' | 'created_at'>>;

export function transcriptToNote(
  job: TranscriptSource,
  input: TranscriptNoteInput = {},
  options: { audioName?: string } = {},
): TranscriptNoteDraft {
  if (job.status !== 'completed') {
    throw new AppError(
      'TRANSCRIPT_NOT_READY',
      `The transcript is not ready yet: the job is ${job.status}. Only completed transcriptions become notes.`,
      { job_id: job.job_id, status: job.status },
    );
  }
  const request = parseInput(transcriptNoteSchema, input, 'The note options are not valid.');
  const hasSpeakers = job.segments.some((segment) => segment.speaker !== null);
  const template: TranscriptNoteTemplate =
    request.template_id ?? (request.include_speakers && hasSpeakers ? 'speaker_turns' : 'segments');
  const groups = template === 'speaker_turns' ? speakerTurns(job.segments) : paragraphGroups(job.segments);

  const paragraphs: string[] = [];
  const citations: TranscriptBlockCitation[] = [];
  const header = headerLine(job, options.audioName);
  const firstSegment = job.segments[0];
  const lastSegment = job.segments.at(-1);
  if (header !== '' && firstSegment && lastSegment) {
    // The line is about the whole recording, so it cites all of it (and plays from the start).
    paragraphs.push(header);
    citations.push({
      source_audio: job.attachment_id,
      start_time: firstSegment.start_time,
      end_time: Math.max(...job.segments.map((segment) => segment.end_time)),
      speaker: null,
    });
  }
  for (const group of groups) {
    const first = group[0];
    const last = group.at(-1);
    if (!first || !last) continue;
    const text = escapeText(joinSegments(group));
    if (text === '') continue;
    const prefix: string[] = [];
    if (request.include_timestamps) prefix.push(`[${formatTimestamp(first.start_time)}]`);
    if (request.include_speakers && first.speaker !== null) prefix.push(`**${escapeLabel(first.speaker)}:**`);
    paragraphs.push([...prefix, text].join(' '));
    citations.push({
      source_audio: job.attachment_id,
      start_time: first.start_time,
      end_time: last.end_time,
      speaker: first.speaker,
    });
  }
  const body = paragraphs.length > 0 ? `${paragraphs.join('\n\n')}\n` : '';

  // Paragraph i is on line 2i; each block gets the citation of the paragraph it starts in.
  const block_citations = parseBlocks(body).map((block) => {
    const citation = citations[Math.floor(block.start_line / 2)];
    if (!citation) throw new Error('transcript note: a block outside the generated paragraphs');
    return citation;
  });

  return {
    title: request.title || defaultTitle(options.audioName),
    folder: request.folder,
    body,
    block_citations,
  };
}

/** Consecutive segments of one speaker, split when a turn grows long. */
function speakerTurns(segments: readonly TranscriptSegment[]): TranscriptSegment[][] {
  const turns: TranscriptSegment[][] = [];
  let current: TranscriptSegment[] = [];
  let characters = 0;
  for (const segment of segments) {
    const first = current[0];
    const sameSpeaker = first !== undefined && first.speaker === segment.speaker;
    const tooLong =
      first !== undefined &&
      (segment.end_time - first.start_time > MAX_TURN_SECONDS ||
        characters + segment.text.length > MAX_TURN_CHARACTERS);
    if (!sameSpeaker || tooLong) {
      if (current.length > 0) turns.push(current);
      current = [];
      characters = 0;
    }
    current.push(segment);
    characters += segment.text.length;
  }
  if (current.length > 0) turns.push(current);
  return turns;
}

/** Consecutive segments as paragraphs, bounded as PARAGRAPH_TARGET_SECONDS says. */
function paragraphGroups(segments: readonly TranscriptSegment[]): TranscriptSegment[][] {
  const paragraphs: TranscriptSegment[][] = [];
  let current: TranscriptSegment[] = [];
  let characters = 0;
  for (const segment of segments) {
    const first = current[0];
    const last = current.at(-1);
    if (first && last) {
      const pause = segment.start_time - last.end_time;
      const sentenceEnds = SENTENCE_END.test(last.text.trim());
      const longEnough =
        last.end_time - first.start_time >= PARAGRAPH_TARGET_SECONDS ||
        characters >= PARAGRAPH_TARGET_CHARACTERS;
      const tooLong =
        segment.end_time - first.start_time > MAX_PARAGRAPH_SECONDS ||
        characters + segment.text.length > MAX_PARAGRAPH_CHARACTERS;
      if (
        tooLong ||
        pause >= PARAGRAPH_SILENCE_SECONDS ||
        (sentenceEnds && (longEnough || pause >= PARAGRAPH_PAUSE_SECONDS))
      ) {
        paragraphs.push(current);
        current = [];
        characters = 0;
      }
    }
    current.push(segment);
    characters += segment.text.trim().length;
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs;
}

/** Full-width punctuation carries its own spacing: no space after it, even before a Latin word. */
const AFTER_FULL_WIDTH_PUNCTUATION = /(?<=[\u3000-\u303f\uff00-\uffef]) +/gu;

function joinSegments(group: readonly TranscriptSegment[]): string {
  return joinTexts(group.map((segment) => segment.text)).replace(AFTER_FULL_WIDTH_PUNCTUATION, '');
}

/**
 * The note's first line: the audio's name, the day it was transcribed, its
 * length and language, in no one's words (the note outlives the UI language).
 */
function headerLine(job: TranscriptSource, audioName: string | undefined): string {
  if (job.segments.length === 0) return '';
  const end = Math.max(...job.segments.map((segment) => segment.end_time));
  const parts = [
    audioName?.trim() ?? '',
    job.created_at ? localDate(job.created_at) : '',
    formatTimestamp(end),
    job.language ?? '',
  ].filter((part) => part !== '');
  return escapeText(parts.join(' · '));
}

/** YYYY-MM-DD in the local time zone: the day the person saw, not the UTC one. */
function localDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** `[mm:ss]`, or `[h:mm:ss]` from an hour on. */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${two(minutes)}:${two(rest)}`;
}

/**
 * Model output is text, not Markdown: inline syntax is escaped, and so is
 * anything that would start a heading, list, quote or rule, so each segment
 * stays exactly one paragraph.
 */
function escapeText(text: string): string {
  const inline = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>$|~]/g, '\\$&');
  return inline.replace(/^([#>+=-])/, '\\$1').replace(/^(\d+)([.)])/, '$1\\$2');
}

/** Speaker labels sit inside `**...**`; `_` inside a word needs no escape there. */
function escapeLabel(label: string): string {
  return label
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*[\]<>$|~]/g, '\\$&');
}

function defaultTitle(audioName: string | undefined): string {
  const stem = audioName?.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  return stem ? stem : 'Transcript';
}
