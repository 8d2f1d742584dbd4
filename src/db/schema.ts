import type { Transaction } from 'dexie';
import type {
  BenchmarkCaseResult,
  BenchmarkConfigSnapshot,
  BenchmarkDatasetFile,
  BenchmarkMetrics,
  ChatMessageDto,
  ConversationDto,
  EventEnvelope,
  JobDto,
  ProviderDto,
} from '../contracts';
import type { ThemeManifest } from '../contracts/themes';
import { deriveBlocks, type BlockType } from '../core/blocks';
import { newId } from '../core/ids';
import { inlineTags, mergedTags } from '../core/inline-tags';
import { noteExcerpt } from '../core/markdown/note-excerpt';
import { utf8Length } from '../core/utf8-length';
import { AGENT_STORES } from './agent-stores';
import { ATTACHMENT_REUSES_STORES } from './attachment-repository';
import { DRAFT_STORES } from './draft-repository';
import { IMPORT_ORIGIN_STORES } from './import-origin-repository';
import { IMPORT_STAGING_STORES } from './import-staging-repository';
import { NOTE_VERSION_STORES, NOTE_VERSION_STORES_V12 } from './note-versions';
import { PLUGIN_STORES } from './plugin-stores';

export interface NoteRow {
  note_id: string;
  title: string;
  folder: string;
  body: string;
  tags: string[];
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** IndexedDB cannot index null, so the trash flag is a number beside deleted_at. */
  trashed: 0 | 1;
  /** Leads the note list; rows from before version 13 have none (not pinned). */
  pinned?: 0 | 1;
  /** The import job that wrote the note: how an import a closed tab interrupted is rolled back. */
  import_batch?: string;
}

/**
 * A note's row less its body, with what the note list shows of the body. The
 * list, the sidebar and the indexer read these, never the notes: a note of
 * 100 MB costs them a few hundred bytes. Written in the same transaction as
 * every write of the note's row (version 18); a row without one (written by an
 * older version, or straight into the store) gets it the first time it is listed.
 */
export interface NoteMetaRow extends Omit<NoteRow, 'body'> {
  /** The list's preview of the body: its first words, front matter and Markdown marks left out. */
  excerpt: string;
  /** The body's length in UTF-16 code units, as the body limits count it. */
  body_length: number;
  /**
   * The body's size in UTF-8 bytes, as Settings → Storage shows it, so that
   * page reads meta rows and never a body. Filled for every note by version 20.
   */
  body_bytes: number;
  /**
   * The body's inline `#tags` (Obsidian's), kept so a write that leaves the
   * body alone need not parse it again. Absent: none. Filled by version 23.
   */
  inline_tags?: string[];
  /**
   * The tags the tag list counts and the tag filter matches (indexed,
   * version 23): the note's own tags, then its inline ones, one per
   * case-insensitive spelling. Absent: none. The note's `tags` stay what its
   * front matter says; inline tags are never moved there.
   */
  all_tags?: string[];
}

/** A folder the user made; folders that only exist as notes' `folder` paths have no row. */
export interface FolderRow {
  path: string;
  created_at: string;
}

export interface BlockRow {
  block_id: string;
  note_id: string;
  type: BlockType;
  position: number;
  text: string;
  start_line: number;
  end_line: number;
  hash: string;
  level?: number;
}

export interface AttachmentRow {
  attachment_id: string;
  name: string;
  mime_type: string;
  size: number;
  blob: Blob;
  created_at: string;
  /**
   * Hex SHA-256 of the bytes (version 5): uploads with the same bytes return the
   * stored attachment. Rows written before version 5, and archives being
   * imported, have none and are never matched.
   */
  sha256?: string;
  /**
   * The import job that stored this picture (version 21), so an import a
   * closed tab interrupted removes it with its notes at the next start.
   * Cleared when anything else stores the same bytes: the picture is shared then.
   */
  import_batch?: string;
}

export type JobRow = JobDto;

export interface EventRow {
  resource_id: string;
  sequence: number;
  event: string;
  data: unknown;
  timestamp: string;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export interface SecretRow {
  name: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
  updated_at: string;
}

/** A benchmark run (§9.6): its status, progress and error live in the job of the same id. */
export interface BenchmarkRunRow {
  run_id: string;
  /** The job that runs it: status, progress, error and events are the job's. */
  job_id: string;
  kind: 'rag' | 'agent';
  dataset_id: string;
  dataset_hash: string;
  created_at: string;
  config_snapshot: BenchmarkConfigSnapshot;
  metadata: Record<string, unknown>;
  metrics: BenchmarkMetrics | null;
  /** Per-case results, written once when the run completes. */
  cases: BenchmarkCaseResult[] | null;
  /** Agent runs: each case's trace events by case id, kept because the run's own database is deleted. */
  traces?: Record<string, EventEnvelope[]>;
}

/** A dataset the user imported or built from their notes (the shipped ones are in the code). */
export interface BenchmarkDatasetRow {
  dataset_id: string;
  kind: 'rag' | 'agent';
  content_hash: string;
  created_at: string;
  dataset: BenchmarkDatasetFile;
}

export interface VaultKeyRow {
  id: string;
  key: CryptoKey;
}

/** What made a set of vectors (§9.9); the same fields as the retrieval layer's EmbeddingModelInfo. */
export interface StoredEmbeddingModel {
  model_id: string;
  model_version: string;
  dimension: number;
  normalization: 'l2' | 'none';
}

/**
 * The persisted search indexes, one row per key. They are derived data: notes
 * and blocks stay the source of truth, and every row can be rebuilt from them.
 * All three rows are written in one transaction, so the full-text snapshot and
 * the vectors on disk always describe the same notes.
 */
export type SearchIndexRow =
  | {
      key: 'full_text';
      /** `FullTextIndex.toJSON()`: checked by `FullTextIndex.fromJSON` when loaded. */
      snapshot: unknown;
      block_count: number;
    }
  | {
      key: 'vectors';
      model: StoredEmbeddingModel;
      /** `VectorIndex.toBuffer()`. */
      buffer: ArrayBuffer;
      block_count: number;
    }
  | {
      key: 'meta';
      /** When the indexes last matched every note they had been told about. */
      last_completed_at: string;
      /** When the full-text index and the vectors were last built from scratch. */
      full_text_built_at: string | null;
      vectors_built_at: string | null;
      /**
       * The indexes stored per note (`search_segments`): which generation is
       * live, the full-text segment format, the model of the vectors (null: no
       * vectors). Absent in rows written before version 14: rebuild.
       */
      segments?: {
        generation: number;
        /**
         * How the rows are stored (SEGMENT_STORE_FORMAT in the index
         * repository): absent in rows written before packs, whose rows are all
         * per note; such a store loads as it is and is packed once.
         */
        format?: string;
        full_text_format: string;
        vector_model: StoredEmbeddingModel | null;
        /** The vectors' measured relevance floor (retrieval's RelevanceCalibration); checked when read. */
        relevance_calibration?: unknown;
      };
    };

/**
 * One note's part of the search indexes. A rebuild writes a new generation
 * beside the live one and switches the meta row to it in its last
 * transaction; rows of any other generation are left-overs of an interrupted
 * rebuild and are dropped.
 *
 * Rows live in packs (`search_packs`, a hundred notes to a record: IndexedDB
 * charges a start per record read) and, when written since the last packing,
 * one per note in `search_segments` (the recent rows, which an edit rewrites
 * alone). A recent row hides the note's packed row; a later pack hides an
 * earlier one's.
 */
export interface SearchSegmentRow {
  generation: number;
  note_id: string;
  /** The note's `updated_at` when indexed: a start re-indexes a note whose stamp differs. */
  updated_at: string;
  /** `FullTextIndex.noteSegment()`, checked when loaded; null when the note has no text to find. */
  full_text: unknown;
  /** `VectorIndex.noteSegment()`; null when the note has no vectors. */
  vectors: { block_ids: string[]; folder: string; tags: string[]; data: Float32Array } | null;
  /** The note left the indexes since it was packed: hides its packed row, and is never loaded. */
  removed?: true;
}

/** Up to PACK_NOTES notes' rows of one generation in one record; a higher `pack` is newer. */
export interface SearchPackRow {
  generation: number;
  pack: number;
  rows: Array<Omit<SearchSegmentRow, 'generation'>>;
}

/**
 * A note whose blocks changed since the indexes were last saved. Written when
 * the change is reported and deleted in the transaction that saves the indexes,
 * so a tab closed in between re-indexes the note on the next start.
 */
export interface IndexDirtyRow {
  note_id: string;
  /** Changes on every new mark, so a save only clears the marks it has indexed. */
  token: string;
}

/** A provider's configuration; its API key lives in the vault, never here. */
export type ProviderRow = Omit<ProviderDto, 'has_api_key'>;

export type ConversationRow = ConversationDto;

export type MessageRow = ChatMessageDto;

/** An installed theme package: its checked manifest and stylesheet (resources inlined). */
export interface ThemeRow {
  theme_id: string;
  manifest: ThemeManifest;
  css: string;
  preview_url: string | null;
  /** At most one row has 1; with none, the built-in chosen in the settings applies. */
  enabled: 0 | 1;
  installed_at: string;
}

/**
 * Schema history. Never edit a released entry: add a new version with the new
 * stores and an `upgrade` that moves the data. Dexie keeps the old ones to know
 * how to get from any earlier version to the newest.
 */
export interface Migration {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (transaction: Transaction) => Promise<void> | void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    stores: {
      notes: '&note_id, folder, *tags, [trashed+updated_at]',
      blocks: '&block_id, note_id, [note_id+position]',
      attachments: '&attachment_id, created_at',
      jobs: '&job_id, kind, status, created_at',
      events: '[resource_id+sequence]',
      settings: '&key',
      secrets: '&name',
      vault_keys: '&id',
    },
  },
  {
    // Search: persisted full-text and vector indexes, and the notes
    // waiting to be re-indexed. New stores only; nothing to move.
    version: 2,
    stores: {
      search_index: '&key',
      search_index_dirty: '&note_id',
    },
  },
  {
    // Providers and chat: provider configs, conversations and their
    // messages. New stores only; the default mock provider is seeded by the service.
    version: 3,
    stores: {
      providers: '&provider_id',
      conversations: '&conversation_id, updated_at',
      messages: '&message_id, [conversation_id+position], status',
    },
  },
  {
    version: 4,
    stores: { ...AGENT_STORES },
  },
  {
    // Transcription: attachments indexed by content hash (stored once),
    // and the citations of note blocks made from transcripts. Existing
    // attachments keep no hash: hashing needs WebCrypto, which cannot run inside
    // an upgrade transaction, so they are simply never deduplicated.
    version: 5,
    stores: {
      attachments: '&attachment_id, created_at, sha256',
      block_citations: '&block_id, note_id, source_audio',
    },
  },
  {
    // Theme packages: installed themes and which one is enabled. New store only.
    version: 8,
    stores: { themes: '&theme_id, enabled' },
  },
  {
    // Plugins: installed packages and their settings (secrets stay in the vault).
    version: 9,
    stores: { ...PLUGIN_STORES },
  },
  {
    // Note versions: the state before each agent write, so it can be undone.
    version: 10,
    stores: { ...NOTE_VERSION_STORES },
  },
  {
    // Benchmarks: runs (their status lives in the job of the same id) and
    // imported datasets. New stores only.
    version: 11,
    stores: {
      benchmark_runs: '&run_id, kind, created_at',
      benchmark_datasets: '&dataset_id, kind',
    },
  },
  {
    // Note history: versions ordered by time, so the oldest across all notes
    // are pruned first. A new index only; the rows stay as they are.
    version: 12,
    stores: { ...NOTE_VERSION_STORES_V12 },
  },
  {
    // Folders the user made, so an empty one stays in the sidebar. New store only;
    // the pinned flag on notes needs no index (the list sorts in memory).
    version: 13,
    stores: { folders: '&path' },
  },
  {
    // Search: the indexes stored per note, so an edit rewrites one row. The
    // whole-index rows of version 2 go; the next start builds the new form once.
    version: 14,
    stores: { search_segments: '[generation+note_id]' },
    upgrade: async (transaction) => {
      await transaction.table('search_index').bulkDelete(['full_text', 'vectors']);
    },
  },
  {
    // The note list orders and filters by reading index keys only, so a page
    // never reads the rows (bodies) of notes it does not show. New indexes only:
    // rows without `pinned` (before version 13) are simply not pinned.
    version: 15,
    stores: { notes: '&note_id, folder, *tags, [trashed+updated_at], [trashed+created_at], title, pinned' },
  },
  {
    // Blocks are cut by the Document AST (the parser the preview and the exporters
    // use) instead of a line splitter. Every note's blocks are derived again, keeping
    // the ids of blocks whose text is unchanged or similar; the search index names
    // the block format in its own format, so it is rebuilt once on the next start.
    version: 16,
    stores: {},
    upgrade: rederiveBlocks,
  },
  {
    // Drafts move from localStorage (too small for a large note) into a store
    // keyed per tab and note; the page moves its old drafts over once. And the
    // notes an `update` import overwrote, staged so an interrupted import can
    // put them back at the next start. New stores only.
    version: 17,
    stores: { ...DRAFT_STORES, ...IMPORT_STAGING_STORES },
  },
  {
    // Each note's row less its body, so the note list never reads a body: one
    // huge note (a database from before the size limits) made every list page
    // that showed it read and copy all of it. Filled here a page of notes at a
    // time; the repository keeps it with every write.
    version: 18,
    stores: { note_meta: '&note_id, import_batch' },
    upgrade: fillNoteMeta,
  },
  {
    // Search: the per-note index rows packed a hundred notes to a record, so a
    // start reads a hundred records instead of ten thousand. New store only: a
    // store of per-note rows loads as it is and is packed once after that start.
    version: 19,
    stores: { search_packs: '[generation+pack]' },
  },
  {
    // Each meta row holds its body's UTF-8 size, so Settings → Storage sums
    // meta rows instead of reading every body. Filled here a bounded page of
    // notes at a time; the repository keeps it with every write.
    version: 20,
    stores: {},
    upgrade: fillBodyBytes,
  },
  {
    // Pictures an import stores carry its job's id, as its notes do. A new index
    // only: attachments stored before have none and belong to no import.
    version: 21,
    stores: { attachments: '&attachment_id, created_at, sha256, import_batch' },
  },
  {
    // When a picture already stored was handed out again to be linked, so
    // Settings → Storage does not delete it as unused before the link is saved.
    // New store only: nothing was handed out before.
    version: 22,
    stores: { ...ATTACHMENT_REUSES_STORES },
  },
  {
    // Obsidian's inline `#tags`: each meta row holds its body's, and the union
    // with the note's own tags in an index the tag list and filter read.
    // Filled by rewriting every meta row, a bounded page of bodies at a time;
    // notes with inline tags are marked for the search indexes, whose tag
    // filters see them once re-indexed.
    version: 23,
    stores: { note_meta: '&note_id, import_batch, *all_tags' },
    upgrade: async (transaction) => {
      await rewriteNoteMeta(transaction, async (metas) => {
        const tagged = metas.filter((meta) => meta.inline_tags !== undefined && meta.trashed === 0);
        await transaction
          .table<IndexDirtyRow, string>('search_index_dirty')
          .bulkPut(tagged.map((meta) => ({ note_id: meta.note_id, token: newId('mark') })));
      });
    },
  },
  {
    // Where each imported note came from (its vault path and the note as
    // imported), so a note renamed here and edited in the vault is known
    // again. New store only: notes imported before have no origin and are
    // matched as before; their next import records one.
    version: 24,
    stores: { ...IMPORT_ORIGIN_STORES },
  },
];

/** Writes the meta row of every note, a page of notes at a time. */
export async function fillNoteMeta(transaction: Transaction): Promise<void> {
  const meta = transaction.table<NoteMetaRow, string>('note_meta');
  await forEachNotePage(transaction, (page) => meta.bulkPut(page.map((row) => noteMetaOf(row))));
}

/**
 * Body characters one page of `fillBodyBytes` reads at most (a longer note
 * is read alone): the page's meta rows give the lengths before any body is read.
 */
const BODY_BYTES_PAGE_CHARS = 16 * 1024 * 1024;

/** Version 20: every meta row gets `body_bytes` (see `rewriteNoteMeta`). */
export function fillBodyBytes(transaction: Transaction): Promise<void> {
  return rewriteNoteMeta(transaction);
}

/**
 * Rewrites every note's meta row from its note row, so each gets what
 * `noteMetaOf` derives now (and a note without a meta row gets one), handing
 * each run of rewritten rows to `written`. Ids are listed REDERIVE_PAGE at a
 * time from keys; their rows are read in runs of at most
 * BODY_BYTES_PAGE_CHARS body characters by the meta rows' lengths, so the
 * upgrade holds a bounded page of bodies, never the notebook.
 */
export async function rewriteNoteMeta(
  transaction: Transaction,
  written?: (metas: NoteMetaRow[]) => Promise<void>,
): Promise<void> {
  const notes = transaction.table<NoteRow, string>('notes');
  const meta = transaction.table<NoteMetaRow, string>('note_meta');
  let after: string | undefined;
  for (;;) {
    const ids = await (after === undefined ? notes.toCollection() : notes.where(':id').above(after))
      .limit(REDERIVE_PAGE)
      .primaryKeys();
    const last = ids.at(-1);
    if (last === undefined) return;
    after = last;
    const lengths = (await meta.bulkGet(ids)).map((row) => row?.body_length ?? Infinity);
    let run: string[] = [];
    let chars = 0;
    const flush = async (): Promise<void> => {
      if (run.length === 0) return;
      const rows = (await notes.bulkGet(run)).filter((row): row is NoteRow => row !== undefined);
      const metas = rows.map((row) => noteMetaOf(row));
      await meta.bulkPut(metas);
      await written?.(metas);
      run = [];
      chars = 0;
    };
    for (const [index, id] of ids.entries()) {
      const length = lengths[index]!;
      if (run.length > 0 && chars + length > BODY_BYTES_PAGE_CHARS) await flush();
      run.push(id);
      chars += length;
    }
    await flush();
  }
}

/** Hands an upgrade every note row, REDERIVE_PAGE at a time in id order, so no upgrade holds them all. */
async function forEachNotePage(
  transaction: Transaction,
  visit: (page: NoteRow[]) => Promise<unknown>,
): Promise<void> {
  const notes = transaction.table<NoteRow, string>('notes');
  let after: string | undefined;
  for (;;) {
    const page = await (after === undefined ? notes.toCollection() : notes.where(':id').above(after))
      .limit(REDERIVE_PAGE)
      .toArray();
    const last = page.at(-1);
    if (!last) return;
    after = last.note_id;
    await visit(page);
  }
}

/**
 * The meta row of a note row. `inline` is the body's inline tags when the
 * caller knows them (a write that kept the body); otherwise the body is read.
 */
export function noteMetaOf(row: NoteRow, inline: readonly string[] = inlineTags(row.body)): NoteMetaRow {
  const { body, ...rest } = row;
  const all = mergedTags(row.tags, inline);
  return {
    ...rest,
    excerpt: excerptOf(body),
    body_length: body.length,
    body_bytes: utf8Length(body),
    ...(inline.length > 0 ? { inline_tags: [...inline] } : {}),
    ...(all.length > 0 ? { all_tags: all } : {}),
  };
}

/** The body's first words as the note list shows them (see `noteExcerpt`). */
export const excerptOf = noteExcerpt;

const REDERIVE_PAGE = 200;

/** Re-derives each note's stored blocks with the current `deriveBlocks`, a page of notes at a time. */
export async function rederiveBlocks(transaction: Transaction): Promise<void> {
  const blocks = transaction.table<BlockRow, string>('blocks');
  await forEachNotePage(transaction, async (page) => {
    for (const note of page) {
      const previous = (await blocks.where('note_id').equals(note.note_id).toArray()).sort(
        (a, b) => a.position - b.position,
      );
      const next = deriveBlocks(previous, note.body, () => newId('block')).map((block): BlockRow => ({
        ...block,
        note_id: note.note_id,
      }));
      const kept = new Set(next.map((block) => block.block_id));
      const gone = previous.filter((block) => !kept.has(block.block_id));
      await blocks.bulkDelete(gone.map((block) => block.block_id));
      await blocks.bulkPut(next);
      await moveCitations(transaction, gone, next);
    }
  });
}

/**
 * An audio citation of a block whose id did not survive goes to the block that now
 * holds the cited block's first line (when that block has none of its own), so the
 * note still plays from the right moment.
 */
async function moveCitations(
  transaction: Transaction,
  gone: readonly BlockRow[],
  next: readonly BlockRow[],
): Promise<void> {
  if (gone.length === 0) return;
  const citations = transaction.table<{ block_id: string }, string>('block_citations');
  const rows = (await citations.bulkGet(gone.map((block) => block.block_id))).filter(
    (row): row is { block_id: string } => row !== undefined,
  );
  if (rows.length === 0) return;
  const cited = new Set(
    (await citations.bulkGet(next.map((block) => block.block_id))).flatMap((row) =>
      row ? [row.block_id] : [],
    ),
  );
  for (const row of rows) {
    const line = gone.find((block) => block.block_id === row.block_id)?.start_line ?? -1;
    const target = next.find((block) => block.start_line <= line && line <= block.end_line);
    if (!target || cited.has(target.block_id)) continue;
    cited.add(target.block_id);
    await citations.delete(row.block_id);
    await citations.put({ ...row, block_id: target.block_id });
  }
}
