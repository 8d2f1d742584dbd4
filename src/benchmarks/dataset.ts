import type { z } from 'zod';
import {
  AppError,
  benchmarkDatasetSchema,
  type BenchmarkDatasetDto,
  type BenchmarkDatasetFile,
  type BenchmarkNoteDto,
  type CreateDatasetFromNotesInput,
  type RagDatasetFile,
} from '../contracts';
import { blockHash, deriveBlocks, parseBlocks, type DerivedBlock } from '../core/blocks';

/**
 * Datasets (§9.1–9.3): validated before they are registered, hashed over a
 * canonical form so the same cases hash the same whatever the key order or
 * whitespace of the file, and addressed by id only (never by path).
 */

/**
 * The blocks of a dataset note: the app's own block parser, with the dataset's
 * ids. A note with anchors gives each id to the block with its content hash,
 * else to the block that now holds its first line, so a parser that cuts the
 * body differently (or a body whose blocks were reordered) keeps every case
 * pointing at the text it was written for. Ids in `preferred` (the cases'
 * expected blocks) go first where two old blocks now share one.
 */
export function datasetBlocks(note: BenchmarkNoteDto, preferred?: ReadonlySet<string>): DerivedBlock[] {
  if (note.block_anchors && note.block_ids)
    return anchoredBlocks(note.body, note.note_id, note.block_ids, note.block_anchors, preferred);
  let position = 0;
  return deriveBlocks([], note.body, () => {
    const id = note.block_ids?.[position] ?? `${note.note_id}#${position}`;
    position += 1;
    return id;
  });
}

function anchoredBlocks(
  body: string,
  noteId: string,
  ids: readonly string[],
  anchors: NonNullable<BenchmarkNoteDto['block_anchors']>,
  preferred: ReadonlySet<string> = new Set(),
): DerivedBlock[] {
  const blocks = parseBlocks(body).map((block) => ({ ...block, hash: blockHash(block.type, block.text) }));
  const owner = new Array<number>(blocks.length).fill(-1);
  const placed = new Array<boolean>(anchors.length).fill(false);
  // 1. Same content: in order, so repeated identical blocks pair up in order.
  const byHash = new Map<string, number[]>();
  anchors.forEach((anchor, index) => {
    const list = byHash.get(anchor.hash);
    if (list) list.push(index);
    else byHash.set(anchor.hash, [index]);
  });
  blocks.forEach((block, index) => {
    const anchor = byHash.get(block.hash)?.shift();
    if (anchor === undefined) return;
    owner[index] = anchor;
    placed[anchor] = true;
  });
  // 2. The block now holding the old block's first line, expected blocks first.
  const rest = anchors.map((_, index) => index).filter((index) => !placed[index]);
  rest.sort((a, b) => Number(preferred.has(ids[b] ?? '')) - Number(preferred.has(ids[a] ?? '')));
  for (const anchor of rest) {
    const line = anchors[anchor]!.line;
    const index = blocks.findIndex((block) => block.start_line <= line && line <= block.end_line);
    if (index < 0 || owner[index] !== -1) continue;
    owner[index] = anchor;
  }
  // 3. Blocks no old one maps to get ids of their own, never one the note already lists.
  const taken = new Set(ids);
  return blocks.map((block, index) => {
    const anchor = owner[index]!;
    let id = anchor >= 0 ? ids[anchor]! : `${noteId}#${index}`;
    for (let attempt = 1; anchor < 0 && taken.has(id); attempt++) id = `${noteId}#${index}-${attempt}`;
    taken.add(id);
    return { ...block, block_id: id, position: index };
  });
}

/** The blocks a dataset's cases expect: where two old blocks now share one, these keep it. */
export function expectedBlockIds(dataset: BenchmarkDatasetFile): Set<string> {
  return new Set(dataset.kind === 'rag' ? dataset.cases.flatMap((entry) => entry.expected_block_ids) : []);
}

/** Each block's content hash and first line, beside its id (see {@link datasetBlocks}). */
export function blockAnchors(body: string): NonNullable<BenchmarkNoteDto['block_anchors']> {
  return parseBlocks(body).map((block) => ({
    hash: blockHash(block.type, block.text),
    line: block.start_line,
  }));
}

/** Parses and checks a dataset; any problem is BENCHMARK_DATASET_INVALID naming the case and field. */
export function parseDataset(input: unknown): BenchmarkDatasetFile {
  const parsed = benchmarkDatasetSchema.safeParse(input);
  if (!parsed.success) throw invalidFromZod(input, parsed.error);
  const dataset = parsed.data as BenchmarkDatasetFile;

  const noteIds = new Set<string>();
  const blockIds = new Set<string>();
  const expected = expectedBlockIds(dataset);
  dataset.notes.forEach((note, index) => {
    if (noteIds.has(note.note_id))
      throw invalid(`notes.${index}.note_id`, null, 'repeats an earlier note id');
    noteIds.add(note.note_id);
    if (note.block_anchors && note.block_anchors.length !== note.block_ids?.length) {
      throw invalid(
        `notes.${index}.block_anchors`,
        null,
        `lists ${note.block_anchors.length} anchors for ${note.block_ids?.length ?? 0} block ids`,
      );
    }
    const blocks = datasetBlocks(note, expected);
    // With anchors the ids follow content, so the parser may now cut more or fewer blocks.
    if (note.block_ids && !note.block_anchors && note.block_ids.length !== blocks.length) {
      throw invalid(
        `notes.${index}.block_ids`,
        null,
        `lists ${note.block_ids.length} ids for ${blocks.length} blocks`,
      );
    }
    if (note.block_ids && new Set(note.block_ids).size !== note.block_ids.length)
      throw invalid(`notes.${index}.block_ids`, null, 'repeats a block id');
    // Cases may only expect blocks the run's index will hold.
    for (const block of blocks) {
      if (blockIds.has(block.block_id)) throw invalid(`notes.${index}.block_ids`, null, 'repeats a block id');
      blockIds.add(block.block_id);
    }
  });

  const caseIds = new Set<string>();
  dataset.cases.forEach((entry, index) => {
    if (caseIds.has(entry.case_id))
      throw invalid(`cases.${index}.case_id`, entry.case_id, 'repeats an earlier case id');
    caseIds.add(entry.case_id);
    if (dataset.kind !== 'rag') return;
    const rag = dataset.cases[index]!;
    if (rag.expected_block_ids.length === 0 && rag.expected_note_ids.length === 0) {
      throw invalid(`cases.${index}.expected_block_ids`, rag.case_id, 'names no expected block or note');
    }
    rag.expected_note_ids.forEach((id, at) => {
      if (!noteIds.has(id))
        throw invalid(
          `cases.${index}.expected_note_ids.${at}`,
          rag.case_id,
          `note ${id} is not in the dataset`,
        );
    });
    rag.expected_block_ids.forEach((id, at) => {
      if (!blockIds.has(id))
        throw invalid(
          `cases.${index}.expected_block_ids.${at}`,
          rag.case_id,
          `block ${id} is not in the dataset`,
        );
    });
  });
  if (dataset.kind === 'rag' && dataset.notes.length === 0)
    throw invalid('notes', null, 'a RAG dataset needs notes to search');
  return dataset;
}

/** A dataset file's text: JSON, then {@link parseDataset}; an empty or unparsable file names the root. */
export function parseDatasetText(text: unknown): BenchmarkDatasetFile {
  if (typeof text !== 'string' || text.length === 0)
    throw invalid('(root)', null, 'is empty', 'The dataset file is empty.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid('(root)', null, 'is not JSON', 'The dataset file is not valid JSON.');
  }
  return parseDataset(json);
}

/** A note of the user's notebook as "benchmark my notes" copies it (block ids kept). */
export interface NotebookNote {
  note_id: string;
  title: string;
  folder: string;
  tags: readonly string[];
  body: string;
  block_ids: string[];
}

/**
 * "Benchmark my notes": a RAG dataset whose corpus is a copy of the user's
 * notes and whose cases are the picked blocks with the questions written for
 * them. `picked[i]` is the note of case i's block, or undefined when that block
 * no longer exists (BENCHMARK_DATASET_INVALID naming the case).
 */
export function datasetFromNotes(
  request: Required<CreateDatasetFromNotesInput>,
  notes: readonly NotebookNote[],
  picked: ReadonlyArray<{ note_id: string } | undefined>,
): BenchmarkDatasetFile {
  const caseId = (index: number): string => `mine-${String(index + 1).padStart(3, '0')}`;
  picked.forEach((block, index) => {
    if (!block) {
      throw new AppError(
        'BENCHMARK_DATASET_INVALID',
        `Case ${index + 1}: the chosen block no longer exists.`,
        {
          case_id: caseId(index),
          field: `cases.${index}.block_id`,
        },
      );
    }
  });
  const dataset: RagDatasetFile = {
    dataset_id: request.dataset_id,
    kind: 'rag',
    version: '1.0.0',
    description: request.description,
    notes: notes.map((note, index) => {
      // Cases name blocks by id; the anchors let those ids survive a re-cut body.
      const anchors = blockAnchors(note.body);
      // Blocks cut by another parser version than this one: positions would pair wrong contents.
      if (anchors.length !== note.block_ids.length) {
        throw invalid(
          `notes.${index}.block_ids`,
          null,
          `lists ${note.block_ids.length} ids for ${anchors.length} blocks`,
        );
      }
      return {
        note_id: note.note_id,
        title: note.title,
        folder: note.folder,
        tags: [...note.tags],
        body: note.body,
        block_ids: [...note.block_ids],
        block_anchors: anchors,
      };
    }),
    cases: request.cases.map((entry, index) => ({
      case_id: caseId(index),
      query: entry.query,
      expected_note_ids: [picked[index]!.note_id],
      expected_block_ids: [entry.block_id],
      citation_required: false,
      tags: ['mine'],
    })),
  };
  return parseDataset(dataset);
}

function invalidFromZod(input: unknown, error: z.ZodError): AppError {
  const issue = error.issues[0]!;
  const path = issue.path.map(String);
  let caseId: string | null = null;
  if (path[0] === 'cases' && path[1] !== undefined) {
    const cases = (input as { cases?: unknown } | null)?.cases;
    const entry = Array.isArray(cases)
      ? (cases[Number(path[1])] as { case_id?: unknown } | undefined)
      : undefined;
    caseId = typeof entry?.case_id === 'string' ? entry.case_id : null;
  }
  return invalid(path.join('.') || '(root)', caseId, issue.message);
}

function invalid(field: string, caseId: string | null, problem: string, message?: string): AppError {
  const where = caseId === null ? field : `case ${caseId}, field ${field}`;
  return new AppError(
    'BENCHMARK_DATASET_INVALID',
    message ?? `The dataset is not valid: ${where} ${problem}.`,
    {
      case_id: caseId,
      field,
    },
  );
}

/** JSON with object keys sorted at every level; arrays keep their order (it is meaningful). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `sha256:<hex>` of the canonical form of the parsed (defaults filled) dataset. */
export async function datasetHash(dataset: BenchmarkDatasetFile): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(dataset));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export async function describeDataset(
  dataset: BenchmarkDatasetFile,
  source: BenchmarkDatasetDto['source'],
): Promise<BenchmarkDatasetDto> {
  return {
    dataset_id: dataset.dataset_id,
    kind: dataset.kind,
    version: dataset.version,
    description: dataset.description,
    case_count: dataset.cases.length,
    content_hash: await datasetHash(dataset),
    source,
  };
}
