// `npm run bench`: Node benchmarks over fake-indexeddb, each printed as a ratio
// against a baseline measured in the same run. Sizes can be scaled down with
// BENCH_SCALE=0.1 for a quick look.
import 'fake-indexeddb/auto';
import { EventLog } from '../src/core/event-log';
import { deriveBlocks } from '../src/core/blocks';
import { newId } from '../src/core/ids';
import { EventRepository, NotesAgentDatabase, NotesRepository } from '../src/db';
import type { BlockRow, EventRow, NoteRow } from '../src/db/schema';
import { audioDecodeBenchmarks } from './audio-decode';
import { exportBenchmarks } from './export';
import { editorBenchmarks } from './editor';
import { compare, report, type BenchResult } from './harness';
import { indexBuildBenchmarks } from './index-build';
import { indexLoadBenchmarks } from './index-load';
import { inlineTagsBenchmarks } from './inline-tags';
import { notebookChromiumBenchmarks } from './notebook-chromium';
import { pluginBridgeBenchmarks } from './plugin-bridge';
import { providerStreamBenchmarks } from './provider-stream';
import { retrievalBenchmarks } from './retrieval';
import { searchScaleBenchmarks } from './search-scale';

const scale = Number(process.env.BENCH_SCALE ?? 1);
// BENCH_ONLY=notebook: the 10,000-note notebook in Chromium alone.
if (process.env.BENCH_ONLY === 'notebook') {
  console.log(report(await notebookChromiumBenchmarks(scale)));
  process.exit(0);
}
const NOTES = Math.round(10_000 * scale);
const EVENTS = Math.round(100_000 * scale);
let databases = 0;
const freshDb = () => new NotesAgentDatabase(`bench-${databases++}`);

function noteBody(i: number): string {
  return `# 笔记 ${i}\n\nParagraph one of note ${i} about 调度 and scheduling.\n\n- item a\n- item b\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`;
}

const drafts = Array.from({ length: NOTES }, (_, i) => ({
  title: `Note ${i}`,
  folder: `folder-${i % 20}`,
  body: noteBody(i),
  tags: [`t${i % 7}`],
}));

async function insertThroughRepository(): Promise<void> {
  const db = freshDb();
  const notes = new NotesRepository(db);
  for (let i = 0; i < drafts.length; i += 500) await notes.createMany(drafts.slice(i, i + 500));
  await db.delete();
}

/** The same rows, prepared up front, written with bulkPut: the floor for this work. */
async function insertRawDexie(): Promise<void> {
  const db = freshDb();
  const now = new Date().toISOString();
  const noteRows: NoteRow[] = [];
  const blockRows: BlockRow[][] = [];
  for (const draft of drafts) {
    const note_id = newId('note');
    noteRows.push({
      ...draft,
      note_id,
      version: 1,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      trashed: 0,
    });
    blockRows.push(
      deriveBlocks([], draft.body, () => newId('block')).map((block) => ({ ...block, note_id })),
    );
  }
  for (let i = 0; i < noteRows.length; i += 500) {
    await db.transaction('rw', db.notes, db.blocks, async () => {
      await db.notes.bulkPut(noteRows.slice(i, i + 500));
      await db.blocks.bulkPut(blockRows.slice(i, i + 500).flat());
    });
  }
  await db.delete();
}

const RESOURCES = 100;
const timestamp = new Date().toISOString();

async function appendAndReplayThroughLog(): Promise<void> {
  const db = freshDb();
  const log = new EventLog(new EventRepository(db));
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < EVENTS; i++)
    writes.push(log.publish(`job_${i % RESOURCES}`, 'Progress', { current: i }));
  await Promise.all(writes);
  // Replay every resource through the paged reads a subscription with after_sequence=0 makes.
  let replayed = 0;
  for (let r = 0; r < RESOURCES; r++) {
    let cursor = 0;
    for (;;) {
      const page = await log.list(`job_${r}`, cursor, 500);
      replayed += page.items.length;
      cursor = page.next_sequence;
      if (!page.has_more) break;
    }
  }
  if (replayed !== EVENTS) throw new Error(`replayed ${replayed} of ${EVENTS}`);
  await db.delete();
}

/** One add per event, each awaited (persist-before-deliver needs one write per event), then one read per resource. */
async function appendAndReplayRawDexie(): Promise<void> {
  const db = freshDb();
  for (let i = 0; i < EVENTS; i++) {
    const row: EventRow = {
      resource_id: `job_${i % RESOURCES}`,
      sequence: Math.floor(i / RESOURCES) + 1,
      event: 'Progress',
      data: { current: i },
      timestamp,
    };
    await db.events.add(row);
  }
  let replayed = 0;
  for (let r = 0; r < RESOURCES; r++)
    replayed += (
      await db.events
        .where('[resource_id+sequence]')
        .between([`job_${r}`, 0], [`job_${r}`, Infinity])
        .toArray()
    ).length;
  if (replayed !== EVENTS) throw new Error(`replayed ${replayed} of ${EVENTS}`);
  await db.delete();
}

const results: BenchResult[] = [];
console.log(
  `Benchmarks (scale ${scale}): ${NOTES} notes, ${EVENTS} events, median of 3 runs after a warm-up (events: BENCH_RUNS, default 1).\n`,
);
results.push(
  await compare(
    `insert ${NOTES} notes + blocks (repository)`,
    'raw Dexie bulkPut',
    insertThroughRepository,
    insertRawDexie,
  ),
);
results.push(
  await compare(
    `append + replay ${EVENTS} events (EventLog)`,
    'raw Dexie add + toArray',
    appendAndReplayThroughLog,
    appendAndReplayRawDexie,
    Number(process.env.BENCH_RUNS ?? 1),
  ),
);
console.log('');
results.push(...(await providerStreamBenchmarks(scale)));
console.log('');
results.push(...(await retrievalBenchmarks(scale)));
results.push(...(await searchScaleBenchmarks(scale)));
results.push(...(await indexBuildBenchmarks(scale)));
results.push(...(await indexLoadBenchmarks(scale)));
results.push(...(await pluginBridgeBenchmarks(scale)));
console.log('');
results.push(...(await audioDecodeBenchmarks(scale)));

results.push(...(await exportBenchmarks()));
console.log('');
results.push(...(await editorBenchmarks(scale)));
results.push(...(await inlineTagsBenchmarks(scale)));
console.log('');
results.push(...(await notebookChromiumBenchmarks(scale)));
console.log('');
console.log(report(results));
