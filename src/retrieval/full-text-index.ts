import { AppError } from '../contracts';
import { matchesFilter, type SearchFilter } from './search-filter';
import { BLOCK_FORMAT } from '../core/blocks';
import { planQuery, planTerms, type QueryPlan } from './query-plan';
import { withoutLinkTargets } from './link-targets';
import { analyze, tokenize, TOKENIZER_VERSION, type Token } from './tokenizer';

/** One block as the full-text index sees it; title, folder and tags are its note's. */
export interface FullTextDocument {
  block_id: string;
  note_id: string;
  text: string;
  title?: string;
  /**
   * The note's other names (front matter `aliases:`), searched with its title:
   * `[[死锁]]` opens the note Deadlock, so searching 死锁 finds it too.
   */
  aliases?: readonly string[];
  folder?: string;
  tags?: readonly string[];
}

/** UTF-16 offsets into the block text (what `String.prototype.slice` takes), end exclusive. */
export interface HighlightRange {
  start: number;
  end: number;
}

export interface FullTextHit {
  block_id: string;
  note_id: string;
  score: number;
  highlights: HighlightRange[];
}

export interface FullTextSearchOptions {
  limit: number;
  filter?: SearchFilter;
  /**
   * Search as you type: the query's last word, when nothing follows it, also
   * matches the index words it begins ("kuber" finds "kubernetes"). Off for
   * finished questions (RAG context, benchmarks), where a half word is not meant.
   */
  prefix?: boolean;
  /**
   * false: hits come without highlights, for a caller that shows only some of
   * them and asks `highlights()` for those (analysing every hit's text is the
   * dearest part of a query that ranks hundreds).
   */
  highlights?: boolean;
}

/** Okapi BM25 with the usual constants; they are properties of the index, not of a profile. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/**
 * A title match counts this much next to a body match. Every block of a note
 * shares the title, so the boost lifts the note and the body terms still pick
 * the block; above 1 a title-only match would outrank the block that answers.
 */
export const TITLE_BOOST = 0.6;
/**
 * A word completed from a typed prefix scores this share of an exact match, so
 * the block with the word as typed stays ahead of one with a longer word.
 */
export const PREFIX_MATCH_WEIGHT = 0.8;
/** Shorter prefixes match so many words that they rank noise; they match exactly only. */
export const MIN_PREFIX_LENGTH = 2;
/** The completions of one prefix that count, most frequent first: bounds the work of a short prefix. */
export const MAX_PREFIX_EXPANSIONS = 50;
export const FULL_TEXT_SNAPSHOT_FORMAT = 'notes-agent/full-text-index';
export const FULL_TEXT_SNAPSHOT_VERSION = 1;

/**
 * The persisted form, plain JSON that also structured-clones well: one row per
 * note and per block, then per field the terms as one space-separated string (terms never
 * hold whitespace) and one flat number array that loads without tokenizing.
 * For each term the array holds its count of numbers, then its postings: the
 * gap to the previous row number times two, plus one when a term frequency
 * above 1 follows. Most postings have tf = 1 and take one small number.
 */
export interface FullTextSnapshot {
  format: typeof FULL_TEXT_SNAPSHOT_FORMAT;
  version: typeof FULL_TEXT_SNAPSHOT_VERSION;
  tokenizer: string;
  /** [note_id, title, folder, tags, aliases?], once per note, not once per block. */
  notes: Array<[string, string, string, string[]] | [string, string, string, string[], string[]]>;
  /** [block_id, row in `notes`, text, body length, title length] */
  documents: Array<[string, number, string, number, number]>;
  body: EncodedPostings;
  title: EncodedPostings;
}

export interface EncodedPostings {
  terms: string;
  postings: number[];
}

/**
 * What a per-note segment must have been written with to be read back as is. The
 * block format is part of it: blocks cut another way are other documents.
 */
export const FULL_TEXT_SEGMENT_FORMAT = `notes-agent/full-text-segment@1/${TOKENIZER_VERSION}/${BLOCK_FORMAT}`;

/**
 * One note's part of the index, stored on its own so an edit rewrites one
 * note, and loaded without tokenizing: per field each distinct term once
 * (space-separated; terms never hold whitespace) with its counts beside it,
 * the counts left empty when every term occurs once, as most do.
 */
export interface FullTextNoteSegment {
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  /** The note's aliases; absent when it has none. Their terms are in `title_terms`. */
  aliases?: string[];
  /** The terms of the title and aliases (`namesText`). */
  title_terms: string;
  title_tf: number[];
  /** [block_id, text, body terms, body counts] in the order the blocks were indexed. */
  blocks: Array<[string, string, string, number[]]>;
}

interface StoredDocument {
  number: number;
  block_id: string;
  note_id: string;
  text: string;
  title: string;
  aliases: readonly string[];
  folder: string;
  tags: string[];
  length: number;
  titleLength: number;
}

const titleOrder = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

const NO_ALIASES: readonly string[] = Object.freeze([]);

/**
 * The body terms of a block's (searched) text: a `[[link]]` counts by its
 * label, not by the linked note's name (`withoutLinkTargets`).
 */
export function bodyTerms(text: string): string[] {
  return tokenize(withoutLinkTargets(text));
}

/**
 * What the title field of a block holds: its note's title and aliases, the
 * names `[[links]]` resolve, one a line so no term spans two names.
 */
export function namesText(title: string, aliases: readonly string[] = NO_ALIASES): string {
  return aliases.length === 0 ? title : [title, ...aliases].join('\n');
}

/**
 * One term's postings: the numbers of the documents holding it, ascending,
 * and each one's term frequency beside it. Two arrays of small integers
 * instead of a map per term: a start adds millions of postings, and an
 * append to an array is cheaper than a map insert and holds less memory; a
 * query reads them straight through. New documents
 * take the next number, so adding is an append; a removal shifts the tail.
 */
class PostingList {
  readonly numbers: number[] = [];
  readonly tfs: number[] = [];

  get size(): number {
    return this.numbers.length;
  }

  add(number: number, tf: number): void {
    const numbers = this.numbers;
    const count = numbers.length;
    if (count === 0 || numbers[count - 1]! < number) {
      numbers.push(number);
      this.tfs.push(tf);
      return;
    }
    const at = lowerBound(numbers, number);
    if (numbers[at] === number) {
      this.tfs[at] = tf;
      return;
    }
    numbers.splice(at, 0, number);
    this.tfs.splice(at, 0, tf);
  }

  delete(number: number): boolean {
    const at = lowerBound(this.numbers, number);
    if (this.numbers[at] !== number) return false;
    this.numbers.splice(at, 1);
    this.tfs.splice(at, 1);
    return true;
  }

  has(number: number): boolean {
    return this.numbers[lowerBound(this.numbers, number)] === number;
  }
}

/** The first index whose number is not below `number`. */
function lowerBound(numbers: readonly number[], number: number): number {
  let low = 0;
  let high = numbers.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (numbers[middle]! < number) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** term -> its postings */
type Postings = Map<string, PostingList>;

/**
 * An in-memory BM25 inverted index over note blocks. Blocks are added, replaced
 * and removed one at a time so the index follows edits without a rebuild.
 */
export class FullTextIndex {
  readonly #documents = new Map<string, StoredDocument>();
  readonly #byNumber = new Map<number, StoredDocument>();
  /**
   * Body and title lengths by document number: scoring reads one per posting,
   * and an array index is several times cheaper than a map lookup there.
   */
  readonly #bodyLengths: number[] = [];
  readonly #titleLengths: number[] = [];
  readonly #notes = new Map<string, Set<string>>();
  readonly #body: Postings = new Map();
  readonly #title: Postings = new Map();
  #nextNumber = 0;
  #bodyTotal = 0;
  #titleTotal = 0;

  get size(): number {
    return this.#documents.size;
  }

  has(blockId: string): boolean {
    return this.#documents.has(blockId);
  }

  get(blockId: string): FullTextDocument | undefined {
    const stored = this.#documents.get(blockId);
    if (!stored) return undefined;
    const { block_id, note_id, text, title, folder, tags } = stored;
    return { block_id, note_id, text, title, folder, tags: [...tags] };
  }

  /** Block ids of a note, in the order they were indexed. */
  blocksOf(noteId: string): string[] {
    return [...(this.#notes.get(noteId) ?? [])];
  }

  /**
   * The first indexed block of each note the filter lets through, by title,
   * at most `limit`: what a query of tags alone (`#os`) lists, one entry a note,
   * each scored 1 (nothing was ranked).
   */
  firstBlocks(filter: SearchFilter, limit: number): FullTextHit[] {
    const firsts: StoredDocument[] = [];
    for (const ids of this.#notes.values()) {
      const [first] = ids;
      const document = first === undefined ? undefined : this.#documents.get(first);
      if (document && matchesFilter(document, filter)) firsts.push(document);
    }
    return firsts
      .sort((a, b) => titleOrder.compare(a.title, b.title) || (a.note_id < b.note_id ? -1 : 1))
      .slice(0, Math.max(0, limit))
      .map((document) => ({
        block_id: document.block_id,
        note_id: document.note_id,
        score: 1,
        highlights: [],
      }));
  }

  /** Adds a new block; a block id already present is a bug in the caller, so it fails. */
  add(document: FullTextDocument): void {
    if (this.#documents.has(document.block_id)) {
      throw new AppError('STATE_CONFLICT', 'This block is already in the full-text index.', {
        block_id: document.block_id,
      });
    }
    this.#addAs(document, this.#nextNumber++);
  }

  /**
   * Adds the block, or replaces it when present (an edit, a move, a retitled
   * note). A replaced block keeps its number, and so its place among its note's
   * blocks, which orders equal scores (`tiedBefore`).
   */
  update(document: FullTextDocument): void {
    const number = this.#documents.get(document.block_id)?.number;
    this.remove(document.block_id);
    this.#addAs(document, number ?? this.#nextNumber++);
  }

  #addAs(document: FullTextDocument, number: number): void {
    const bodyCounts = termCounts(bodyTerms(document.text));
    const aliases = document.aliases && document.aliases.length > 0 ? [...document.aliases] : NO_ALIASES;
    const titleCounts = termCounts(tokenize(namesText(document.title ?? '', aliases)));
    this.#insert(
      {
        number,
        block_id: document.block_id,
        note_id: document.note_id,
        text: document.text,
        title: document.title ?? '',
        aliases,
        folder: document.folder ?? '',
        tags: [...(document.tags ?? [])],
        length: sumOf(bodyCounts),
        titleLength: sumOf(titleCounts),
      },
      bodyCounts,
      titleCounts,
    );
  }

  /** Removes a block; returns false when it was not there. */
  remove(blockId: string): boolean {
    const stored = this.#documents.get(blockId);
    if (!stored) return false;
    // The terms are recomputed from the stored text instead of kept per block:
    // that would cost a list per block in memory and in every snapshot.
    removePostings(this.#body, termCounts(bodyTerms(stored.text)).keys(), stored.number);
    removePostings(
      this.#title,
      termCounts(tokenize(namesText(stored.title, stored.aliases))).keys(),
      stored.number,
    );
    this.#documents.delete(blockId);
    this.#byNumber.delete(stored.number);
    const blocks = this.#notes.get(stored.note_id);
    blocks?.delete(blockId);
    if (blocks?.size === 0) this.#notes.delete(stored.note_id);
    this.#bodyTotal -= stored.length;
    this.#titleTotal -= stored.titleLength;
    return true;
  }

  /** Removes every block of a note; returns how many there were. */
  removeNote(noteId: string): number {
    const blocks = this.blocksOf(noteId);
    for (const blockId of blocks) this.remove(blockId);
    return blocks.length;
  }

  clear(): void {
    this.#documents.clear();
    this.#byNumber.clear();
    this.#bodyLengths.length = 0;
    this.#titleLengths.length = 0;
    this.#notes.clear();
    this.#body.clear();
    this.#title.clear();
    this.#bodyTotal = 0;
    this.#titleTotal = 0;
  }

  /** Blocks ranked by BM25 (body + boosted title), best first; ties by note, then in reading order. */
  search(query: string, options: FullTextSearchOptions): FullTextHit[] {
    const queryTokens = analyze(query);
    const prefix = options.prefix === true ? typedPrefix(query, queryTokens) : undefined;
    const plan = planQuery(queryTokens);
    const groups = this.#termGroups(plan, prefix);
    const count = this.#documents.size;
    if (groups.size === 0 || count === 0 || options.limit <= 0) return [];

    // Scores by document number; `touched` lists the numbers with one (every BM25 term is > 0).
    const scores: Scores = { values: new Float64Array(this.#nextNumber), touched: [] };
    const scored = [...groups.values()];
    this.#accumulate(scores, this.#body, scored, this.#bodyTotal / count, 1, this.#bodyLengths);
    if (this.#titleTotal > 0) {
      this.#accumulate(
        scores,
        this.#title,
        scored,
        this.#titleTotal / count,
        TITLE_BOOST,
        this.#titleLengths,
      );
    }

    // The best `limit` only, kept in order: sorting every matching block would
    // cost more than scoring them when a common term matches most of the notes.
    const matching = this.#matching(plan, groups, [this.#body, this.#title]);
    const top: Ranked[] = [];
    for (const number of scores.touched) {
      if (matching !== undefined && matching[number] !== 1) continue;
      const score = scores.values[number]!;
      if (top.length === options.limit && !ranksBefore(score, number, top[top.length - 1]!, this.#byNumber)) {
        continue;
      }
      const document = this.#byNumber.get(number);
      if (!document || !matchesFilter(document, options.filter)) continue;
      insertRanked(top, { document, score }, options.limit);
    }
    const highlightTerms = highlightTermsOf(queryTokens, prefix);
    return top.map(({ document, score }) => ({
      block_id: document.block_id,
      note_id: document.note_id,
      score,
      highlights: options.highlights === false ? [] : highlightRanges(document.text, highlightTerms),
    }));
  }

  /**
   * One scoring group per distinct term of the plan (a word repeated in the
   * query is not more important); a typed prefix's group holds its completions.
   */
  #termGroups(plan: QueryPlan, prefix: string | undefined): Map<string, TermGroup> {
    const groups = new Map<string, TermGroup>(planTerms(plan).map((term) => [term, [{ term, weight: 1 }]]));
    if (prefix !== undefined) {
      groups
        .get(prefix)
        ?.push(...this.#completions(prefix).map((term) => ({ term, weight: PREFIX_MATCH_WEIGHT })));
    }
    return groups;
  }

  /**
   * Which documents satisfy a clause of the plan (1 in the array), from the
   * postings of the given fields; undefined when every scored document does,
   * as for any query without a Chinese run of two or more characters.
   */
  #matching(plan: QueryPlan, groups: ReadonlyMap<string, TermGroup>, fields: readonly Postings[]) {
    if (plan.bonus.length === 0 && plan.clauses.every((clause) => clause.required === 1)) return undefined;
    const matching = new Uint8Array(this.#nextNumber);
    // Per clause, how many of its terms each document holds; `counted` keeps a
    // term that is in both the body and the title from counting twice.
    const held = new Uint32Array(this.#nextNumber);
    const counted = new Int32Array(this.#nextNumber).fill(-1);
    let stamp = 0;
    for (const clause of plan.clauses) {
      const reached: number[] = [];
      for (const term of clause.terms) {
        stamp++;
        for (const { term: member } of groups.get(term) ?? []) {
          for (const postings of fields) {
            const numbers = postings.get(member)?.numbers ?? [];
            for (let i = 0; i < numbers.length; i++) {
              const number = numbers[i]!;
              if (counted[number] === stamp) continue;
              counted[number] = stamp;
              if (held[number] === 0) reached.push(number);
              held[number] = held[number]! + 1;
              if (held[number] === clause.required) matching[number] = 1;
            }
          }
        }
      }
      for (const number of reached) held[number] = 0;
    }
    return matching;
  }

  /**
   * Indexed words that begin with `prefix` (not the prefix itself), the most
   * frequent first. A scan of the vocabulary: a sorted term list would have to
   * be rebuilt after every edit that adds a word, and the scan of a 10,000-note
   * vocabulary is a fraction of the query (see bench/retrieval.ts).
   */
  #completions(prefix: string): string[] {
    const found = new Map<string, number>();
    for (const postings of [this.#body, this.#title]) {
      for (const [term, entries] of postings) {
        if (term.length > prefix.length && term.startsWith(prefix)) {
          found.set(term, (found.get(term) ?? 0) + entries.size);
        }
      }
    }
    return [...found]
      .sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]))
      .slice(0, MAX_PREFIX_EXPANSIONS)
      .map(([term]) => term);
  }

  /**
   * True when the block's text matches the query as full text would (a
   * word, or most of a Chinese run's bigrams), leaving the title aside.
   */
  sharesTerm(blockId: string, query: string): boolean {
    return this.termSharer(query)(blockId);
  }

  /** `sharesTerm` for one query and many blocks: the query is analysed once. */
  termSharer(query: string): (blockId: string) => boolean {
    const plan = planQuery(analyze(query));
    const groups = this.#termGroups(plan, undefined);
    const matching = this.#matching(plan, groups, [this.#body]);
    const postings = [...groups.keys()]
      .map((term) => this.#body.get(term))
      .filter((entries) => entries !== undefined);
    return (blockId) => {
      const document = this.#documents.get(blockId);
      if (document === undefined) return false;
      if (matching !== undefined) return matching[document.number] === 1;
      return postings.some((entries) => entries.has(document.number));
    };
  }

  /** Where the query's terms occur in a stored block's text; [] for an unknown block. */
  highlights(blockId: string, query: string, options: { prefix?: boolean } = {}): HighlightRange[] {
    return this.highlighter(query, options)(blockId);
  }

  /** `highlights` for one query and many blocks: the query is analysed once. */
  highlighter(query: string, options: { prefix?: boolean } = {}): (blockId: string) => HighlightRange[] {
    const highlight = textHighlighter(query, options);
    return (blockId) => {
      const document = this.#documents.get(blockId);
      return document ? highlight(document.text) : [];
    };
  }

  /**
   * The note's blocks as a segment, or undefined when none is indexed. Blocks of
   * one note share its title, folder and tags (the indexer re-indexes a note as
   * a whole), so those are taken from the first block.
   */
  noteSegment(noteId: string): FullTextNoteSegment | undefined {
    const ids = this.#notes.get(noteId);
    if (!ids || ids.size === 0) return undefined;
    // In number order, the note's reading order, which a block's update keeps.
    const documents = [...ids].map((id) => this.#documents.get(id)!).sort((a, b) => a.number - b.number);
    const first = documents[0]!;
    const [title_terms, title_tf] = encodeCounts(termCounts(tokenize(namesText(first.title, first.aliases))));
    return {
      note_id: noteId,
      title: first.title,
      folder: first.folder,
      tags: [...first.tags],
      ...(first.aliases.length > 0 && { aliases: [...first.aliases] }),
      title_terms,
      title_tf,
      blocks: documents.map((document) => {
        const [terms, tf] = encodeCounts(termCounts(bodyTerms(document.text)));
        return [document.block_id, document.text, terms, tf];
      }),
    };
  }

  /**
   * Adds the blocks of stored segments without tokenizing them. The caller
   * checked FULL_TEXT_SEGMENT_FORMAT; a segment of the wrong shape or a block
   * already present is refused with STATE_CONFLICT (rebuild instead).
   */
  addSegments(segments: Iterable<unknown>): void {
    for (const value of segments) {
      const segment = asSegment(value);
      // Terms go straight from the stored lists into the postings, with no
      // map of counts per block between: a start adds every block this way.
      const title = decodedTerms(segment.title_terms, segment.title_tf);
      const blocks = segment.blocks.map(([block_id, text, terms, tf]) => ({
        block_id,
        text,
        body: decodedTerms(terms, tf),
      }));
      if (blocks.length === 0) continue;
      // Blocks of one note share its tags (one copy, never changed in place)
      // and its title's postings, looked up once.
      const tags = [...segment.tags];
      const aliases = segment.aliases && segment.aliases.length > 0 ? [...segment.aliases] : NO_ALIASES;
      const titleLists = title.terms.map((term) => postingsOf(this.#title, term));
      const titleOnce = title.counts.length === 0;
      for (const { block_id, text, body } of blocks) {
        if (this.#documents.has(block_id)) throw snapshotInvalid('a block is stored twice', { block_id });
        const number = this.#nextNumber++;
        const document: StoredDocument = {
          number,
          block_id,
          note_id: segment.note_id,
          text,
          title: segment.title,
          aliases,
          folder: segment.folder,
          tags,
          length: body.length,
          titleLength: title.length,
        };
        this.#place(document);
        addDecoded(this.#body, body, number);
        for (let i = 0; i < titleLists.length; i++)
          titleLists[i]!.add(number, titleOnce ? 1 : title.counts[i]!);
      }
    }
  }

  toJSON(): FullTextSnapshot {
    const documents = [...this.#byNumber.values()].sort((a, b) => a.number - b.number);
    const rows = new Map<number, number>();
    documents.forEach((document, row) => rows.set(document.number, row));
    const notes: FullTextSnapshot['notes'] = [];
    const noteRows = new Map<string, number>();
    const noteRowOf = (document: StoredDocument): number => {
      // Blocks of one note normally agree on title, folder and tags; if a
      // half-applied edit left them different, each variant gets its own row.
      const key = JSON.stringify([
        document.note_id,
        document.title,
        document.folder,
        document.tags,
        document.aliases,
      ]);
      let row = noteRows.get(key);
      if (row === undefined) {
        const fields: [string, string, string, string[]] = [
          document.note_id,
          document.title,
          document.folder,
          [...document.tags],
        ];
        row = notes.push(document.aliases.length > 0 ? [...fields, [...document.aliases]] : fields) - 1;
        noteRows.set(key, row);
      }
      return row;
    };
    return {
      format: FULL_TEXT_SNAPSHOT_FORMAT,
      version: FULL_TEXT_SNAPSHOT_VERSION,
      tokenizer: TOKENIZER_VERSION,
      notes,
      documents: documents.map((document) => [
        document.block_id,
        noteRowOf(document),
        document.text,
        document.length,
        document.titleLength,
      ]),
      body: encodePostings(this.#body, rows),
      title: encodePostings(this.#title, rows),
    };
  }

  /**
   * Loads a snapshot. One written by another format or tokenizer version would
   * give wrong results, so it is refused with STATE_CONFLICT: rebuild instead.
   */
  static fromJSON(snapshot: unknown): FullTextIndex {
    const valid = asSnapshot(snapshot);
    const index = new FullTextIndex();
    valid.documents.forEach(([block_id, noteRow, text, length, titleLength], number) => {
      const [note_id, title, folder, tags, aliases] = valid.notes[noteRow] ?? ['', '', '', []];
      const document: StoredDocument = {
        number,
        block_id,
        note_id,
        text,
        title,
        aliases: aliases && aliases.length > 0 ? aliases : NO_ALIASES,
        folder,
        tags: [...tags],
        length,
        titleLength,
      };
      index.#documents.set(block_id, document);
      index.#byNumber.set(number, document);
      index.#bodyLengths[number] = length;
      index.#titleLengths[number] = titleLength;
      const blocks = index.#notes.get(note_id) ?? new Set<string>();
      blocks.add(block_id);
      index.#notes.set(note_id, blocks);
      index.#bodyTotal += length;
      index.#titleTotal += titleLength;
    });
    index.#nextNumber = valid.documents.length;
    decodePostings(valid.body, index.#body, valid.documents.length);
    decodePostings(valid.title, index.#title, valid.documents.length);
    return index;
  }

  #insert(document: StoredDocument, bodyCounts: Map<string, number>, titleCounts: Map<string, number>): void {
    this.#place(document);
    addPostings(this.#body, bodyCounts, document.number);
    addPostings(this.#title, titleCounts, document.number);
  }

  /** Everything of a new document but its postings. */
  #place(document: StoredDocument): void {
    this.#documents.set(document.block_id, document);
    this.#byNumber.set(document.number, document);
    this.#bodyLengths[document.number] = document.length;
    this.#titleLengths[document.number] = document.titleLength;
    let blocks = this.#notes.get(document.note_id);
    if (!blocks) {
      blocks = new Set<string>();
      this.#notes.set(document.note_id, blocks);
    }
    blocks.add(document.block_id);
    this.#bodyTotal += document.length;
    this.#titleTotal += document.titleLength;
  }

  /**
   * Adds each group's BM25 to the scores. A group is one query term and, for a
   * typed prefix, its completions: a block counts its best member once, so a
   * block holding several completions is not ranked above one holding the word.
   */
  #accumulate(
    scores: Scores,
    postings: Postings,
    groups: readonly TermGroup[],
    averageLength: number,
    boost: number,
    lengths: readonly number[],
  ): void {
    const count = this.#documents.size;
    const { values, touched } = scores;
    const add = (number: number, score: number) => {
      if (values[number] === 0) touched.push(number);
      values[number] = values[number]! + score;
    };
    for (const group of groups) {
      const best = group.length > 1 ? new Map<number, number>() : undefined;
      for (const { term, weight } of group) {
        const entries = postings.get(term);
        if (!entries) continue;
        const frequency = entries.size;
        const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
        // weight × boost × idf is the left part of the product as written out in full,
        // so taking it once per term gives the very same scores.
        const factor = weight * boost * idf;
        const average = averageLength || 1;
        const { numbers, tfs } = entries;
        for (let i = 0; i < numbers.length; i++) {
          const number = numbers[i]!;
          const tf = tfs[i]!;
          const norm = BM25_K1 * (1 - BM25_B + (BM25_B * lengths[number]!) / average);
          const score = (factor * (tf * (BM25_K1 + 1))) / (tf + norm);
          if (best === undefined) add(number, score);
          else best.set(number, Math.max(best.get(number) ?? 0, score));
        }
      }
      best?.forEach((score, number) => add(number, score));
    }
  }
}

interface Scores {
  values: Float64Array;
  touched: number[];
}

interface Ranked {
  document: StoredDocument;
  score: number;
}

/** Higher score first, equal scores in `tiedBefore` order. */
function ranksBefore(
  score: number,
  number: number,
  other: Ranked,
  byNumber: ReadonlyMap<number, StoredDocument>,
): boolean {
  if (score !== other.score) return score > other.score;
  const document = byNumber.get(number);
  return document !== undefined && tiedBefore(document, other.document);
}

/**
 * Equal scores by note id, and a note's blocks in reading order (a note is
 * indexed whole, in block order, so its documents' numbers follow the note). A
 * match in the title alone scores every block of the note the same; by block id
 * an arbitrary one, a diagram's source as likely as the opening paragraph, led
 * the note, and in hybrid mode its rank is what the fusion weighs.
 */
function tiedBefore(document: StoredDocument, other: StoredDocument): boolean {
  if (document.note_id !== other.note_id) return compareIds(document.note_id, other.note_id) < 0;
  return document.number < other.number;
}

/** Inserts into `top` (best first) by binary search, keeping at most `limit`. */
function insertRanked(top: Ranked[], item: Ranked, limit: number): void {
  let low = 0;
  let high = top.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const other = top[middle]!;
    const before =
      item.score !== other.score ? item.score > other.score : tiedBefore(item.document, other.document);
    if (before) high = middle;
    else low = middle + 1;
  }
  top.splice(low, 0, item);
  if (top.length > limit) top.pop();
}

/** A query term and what else counts as it (the completions of a typed prefix). */
type TermGroup = Array<{ term: string; weight: number }>;

/**
 * The word being typed: the query's last token when it is a word of at least
 * MIN_PREFIX_LENGTH characters and nothing (a space, a full stop) follows it.
 */
function typedPrefix(query: string, tokens: readonly Token[]): string | undefined {
  const last = tokens.at(-1);
  if (last?.kind !== 'word' || last.end !== query.length || last.term.length < MIN_PREFIX_LENGTH) {
    return undefined;
  }
  return last.term;
}

function termCounts(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function sumOf(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

function addPostings(postings: Postings, counts: ReadonlyMap<string, number>, number: number): void {
  for (const [term, tf] of counts) postingsOf(postings, term).add(number, tf);
}

function postingsOf(postings: Postings, term: string): PostingList {
  let entries = postings.get(term);
  if (!entries) {
    entries = new PostingList();
    postings.set(term, entries);
  }
  return entries;
}

function removePostings(postings: Postings, terms: Iterable<string>, number: number): void {
  for (const term of terms) {
    const entries = postings.get(term);
    if (!entries) continue;
    entries.delete(number);
    if (entries.size === 0) postings.delete(term);
  }
}

/**
 * `highlights` for any text, such as a block shown in another form (its
 * readable text) or a title: the query is analysed once.
 */
export function textHighlighter(
  query: string,
  options: { prefix?: boolean } = {},
): (text: string) => HighlightRange[] {
  const tokens = analyze(query);
  const terms = highlightTermsOf(tokens, options.prefix === true ? typedPrefix(query, tokens) : undefined);
  return (text) => highlightRanges(text, terms);
}

/**
 * Terms worth marking in a result: the terms a block matches by (see
 * query-plan.ts). A Chinese character that is part of a query bigram is never
 * marked on its own, so "死锁" does not light up every 死 and 锁 in the block,
 * nor the stray characters of a block found by meaning (a vector hit); a lone
 * character (a one-character query) still is.
 */
function highlightTermsOf(tokens: readonly Token[], prefix?: string): HighlightTerms {
  const covered = new Set<string>();
  for (const token of tokens) {
    if (token.kind === 'cjk_bigram') for (const character of token.term) covered.add(character);
  }
  const terms = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'cjk_unigram' || !covered.has(token.term)) terms.add(token.term);
  }
  return prefix === undefined ? { terms } : { terms, prefix };
}

interface HighlightTerms {
  terms: Set<string>;
  /** A typed prefix: every word it begins is marked too. */
  prefix?: string;
}

function highlightRanges(text: string, terms: HighlightTerms): HighlightRange[] {
  // A dictionary word (three or more characters) is covered by its bigrams,
  // whose touching ranges merge into the word's own: the segmenter, the
  // slowest part of analysing a text, adds nothing to the marks.
  return matchedRanges(analyze(text, { dictionaryWords: false }), terms.terms, terms.prefix);
}

function matchedRanges(
  tokens: readonly Token[],
  terms: ReadonlySet<string>,
  prefix?: string,
): HighlightRange[] {
  const ranges = tokens
    .filter(
      (token) =>
        terms.has(token.term) ||
        (prefix !== undefined && token.kind === 'word' && token.term.startsWith(prefix)),
    )
    .map((token) => ({ start: token.start, end: token.end }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: HighlightRange[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    // Touching ranges merge too: "死锁" + "条件" reads as one mark, not two.
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function encodePostings(postings: Postings, rows: ReadonlyMap<number, number>): EncodedPostings {
  const terms: string[] = [];
  const flat: number[] = [];
  for (const [term, entries] of postings) {
    const pairs: Array<[number, number]> = [];
    entries.numbers.forEach((number, i) => {
      const row = rows.get(number);
      if (row !== undefined) pairs.push([row, entries.tfs[i]!]);
    });
    if (pairs.length === 0) continue;
    pairs.sort((a, b) => a[0] - b[0]);
    const countAt = flat.push(0) - 1;
    let previous = 0;
    for (const [row, tf] of pairs) {
      const gap = row - previous;
      if (tf === 1) flat.push(gap * 2);
      else flat.push(gap * 2 + 1, tf);
      previous = row;
    }
    flat[countAt] = flat.length - countAt - 1;
    terms.push(term);
  }
  return { terms: terms.join(' '), postings: flat };
}

function decodePostings(encoded: EncodedPostings, into: Postings, rowCount: number): void {
  const terms = encoded.terms === '' ? [] : encoded.terms.split(' ');
  const flat = encoded.postings;
  let at = 0;
  for (const term of terms) {
    const count = flat[at++] ?? -1;
    const end = at + count;
    if (!(count > 0) || end > flat.length) throw snapshotInvalid('a posting list is malformed');
    const entries = new PostingList();
    let row = 0;
    while (at < end) {
      const packed = flat[at++] ?? -1;
      row += Math.floor(packed / 2);
      const tf = packed % 2 === 1 ? (flat[at++] ?? 0) : 1;
      if (!(packed >= 0) || row >= rowCount || !(tf >= 1) || at > end) {
        throw snapshotInvalid('a posting is malformed');
      }
      entries.add(row, tf);
    }
    into.set(term, entries);
  }
  if (at !== flat.length) throw snapshotInvalid('postings left over');
}

function encodeCounts(counts: ReadonlyMap<string, number>): [string, number[]] {
  const terms = [...counts.keys()];
  let repeated = false;
  for (const count of counts.values()) if (count !== 1) repeated = true;
  return [terms.join(' '), repeated ? [...counts.values()] : []];
}

/**
 * A stored field's terms (distinct, space-separated) and counts (empty: each
 * once), checked, with `length` the sum of the counts: the field's length.
 */
interface DecodedTerms {
  terms: string[];
  counts: readonly number[];
  length: number;
}

function decodedTerms(terms: string, tf: readonly number[]): DecodedTerms {
  if (terms === '') return { terms: [], counts: [], length: 0 };
  const list = terms.split(' ');
  if (tf.length === 0) return { terms: list, counts: tf, length: list.length };
  if (tf.length !== list.length) throw snapshotInvalid('term counts do not match');
  let length = 0;
  for (const count of tf) {
    if (!(count >= 1)) throw snapshotInvalid('a term count is malformed');
    length += count;
  }
  return { terms: list, counts: tf, length };
}

function addDecoded(postings: Postings, decoded: DecodedTerms, number: number): void {
  const { terms, counts } = decoded;
  const once = counts.length === 0;
  for (let i = 0; i < terms.length; i++) postingsOf(postings, terms[i]!).add(number, once ? 1 : counts[i]!);
}

/** A shallow check of one stored segment, as for snapshots. */
function asSegment(value: unknown): FullTextNoteSegment {
  const segment = value as Partial<FullTextNoteSegment> | null;
  if (
    typeof segment !== 'object' ||
    segment === null ||
    typeof segment.note_id !== 'string' ||
    typeof segment.title !== 'string' ||
    typeof segment.folder !== 'string' ||
    !Array.isArray(segment.tags) ||
    (segment.aliases !== undefined && !Array.isArray(segment.aliases)) ||
    typeof segment.title_terms !== 'string' ||
    !Array.isArray(segment.title_tf) ||
    !Array.isArray(segment.blocks)
  ) {
    throw snapshotInvalid('a note segment is malformed');
  }
  for (const block of segment.blocks) {
    if (
      !Array.isArray(block) ||
      block.length !== 4 ||
      typeof block[0] !== 'string' ||
      typeof block[1] !== 'string' ||
      typeof block[2] !== 'string' ||
      !Array.isArray(block[3])
    ) {
      throw snapshotInvalid('a block of a note segment is malformed');
    }
  }
  return segment as FullTextNoteSegment;
}

function snapshotInvalid(reason: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('STATE_CONFLICT', 'The stored full-text index cannot be used; rebuild it.', {
    index: 'full_text',
    reason,
    ...details,
  });
}

/**
 * A shallow check: the header exactly, the rows by shape. A deep schema parse
 * of every posting would cost more than the load it guards.
 */
function asSnapshot(value: unknown): FullTextSnapshot {
  if (typeof value !== 'object' || value === null) throw snapshotInvalid('not an object');
  const snapshot = value as Partial<FullTextSnapshot>;
  if (snapshot.format !== FULL_TEXT_SNAPSHOT_FORMAT || snapshot.version !== FULL_TEXT_SNAPSHOT_VERSION) {
    throw snapshotInvalid('format', {
      expected: `${FULL_TEXT_SNAPSHOT_FORMAT}@${FULL_TEXT_SNAPSHOT_VERSION}`,
      found: `${String(snapshot.format)}@${String(snapshot.version)}`,
    });
  }
  if (snapshot.tokenizer !== TOKENIZER_VERSION) {
    throw snapshotInvalid('tokenizer', { expected: TOKENIZER_VERSION, found: String(snapshot.tokenizer) });
  }
  const { notes, documents, body, title } = snapshot;
  if (
    !Array.isArray(notes) ||
    !Array.isArray(documents) ||
    typeof body !== 'object' ||
    typeof title !== 'object' ||
    !body ||
    !title
  ) {
    throw snapshotInvalid('missing sections');
  }
  for (const row of notes) {
    if (
      !Array.isArray(row) ||
      (row.length !== 4 && row.length !== 5) ||
      typeof row[0] !== 'string' ||
      typeof row[1] !== 'string' ||
      typeof row[2] !== 'string' ||
      !Array.isArray(row[3]) ||
      (row.length === 5 && !Array.isArray(row[4]))
    ) {
      throw snapshotInvalid('a note row is malformed');
    }
  }
  const seen = new Set<string>();
  for (const row of documents) {
    if (
      !Array.isArray(row) ||
      row.length !== 5 ||
      typeof row[0] !== 'string' ||
      typeof row[1] !== 'number' ||
      !(row[1] >= 0 && row[1] < notes.length) ||
      typeof row[2] !== 'string' ||
      typeof row[3] !== 'number' ||
      typeof row[4] !== 'number' ||
      seen.has(row[0])
    ) {
      throw snapshotInvalid('a document row is malformed');
    }
    seen.add(row[0]);
  }
  for (const section of [body, title]) {
    if (typeof section.terms !== 'string' || !Array.isArray(section.postings)) {
      throw snapshotInvalid('a posting list is malformed');
    }
  }
  return snapshot as FullTextSnapshot;
}
