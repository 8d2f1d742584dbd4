import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { documentsOf, loadCorpus } from './__fixtures__/corpus';
import {
  BM25_B,
  BM25_K1,
  FullTextIndex,
  MAX_PREFIX_EXPANSIONS,
  PREFIX_MATCH_WEIGHT,
  TITLE_BOOST,
  type FullTextDocument,
} from './full-text-index';

const doc = (block_id: string, text: string, extra: Partial<FullTextDocument> = {}): FullTextDocument => ({
  block_id,
  note_id: extra.note_id ?? `note-${block_id}`,
  text,
  ...extra,
});

function indexOf(documents: FullTextDocument[]): FullTextIndex {
  const index = new FullTextIndex();
  for (const document of documents) index.add(document);
  return index;
}

const ids = (index: FullTextIndex, query: string, limit = 10): string[] =>
  index.search(query, { limit }).map((hit) => hit.block_id);

describe('FullTextIndex: BM25 ranking', () => {
  it('computes the Okapi BM25 score (k1 = 1.2, b = 0.75)', () => {
    const index = indexOf([doc('a', 'apple banana'), doc('b', 'cherry')]);
    // N = 2, df(apple) = 1 -> idf = ln(1 + (2 - 1 + 0.5) / (1 + 0.5)) = ln 2.
    // |a| = 2, avgdl = 1.5 -> norm = 1.2 * (1 - 0.75 + 0.75 * 2 / 1.5) = 1.5.
    // score = ln 2 * 1 * 2.2 / (1 + 1.5) = 0.6099...
    expect(BM25_K1).toBe(1.2);
    expect(BM25_B).toBe(0.75);
    const [hit] = index.search('apple', { limit: 5 });
    expect(hit?.block_id).toBe('a');
    expect(hit?.score).toBeCloseTo((Math.log(2) * 2.2) / 2.5, 10);
    expect(hit?.score).toBeCloseTo(0.60997, 5);
  });

  it('prefers rare terms (idf) and shorter blocks (length normalisation)', () => {
    const index = indexOf([
      doc('mat', 'The cat sat on the mat near the door'),
      doc('dogs', 'Dogs and cats'),
      doc('physics', 'Quantum physics lecture'),
    ]);
    expect(ids(index, 'cat')).toEqual(['dogs', 'mat']);
    // "quantum" occurs once in the index, "cat" twice: the rare term wins.
    expect(ids(index, 'cats quantum')[0]).toBe('physics');
    expect(ids(index, 'elephant')).toEqual([]);
    expect(ids(index, 'the and of')).toEqual([]);
  });

  it('ranks Chinese blocks by shared words, not shared characters', () => {
    const index = indexOf([
      doc('lock-screen', '手机锁屏密码忘了，只能刷机。'),
      doc('reflex', '巴甫洛夫的条件反射实验。'),
      doc('deadlock', '死锁的四个必要条件：互斥、占有并等待、不可抢占、循环等待。'),
      doc('death', '死亡率的统计口径。'),
    ]);
    expect(ids(index, '死锁条件')[0]).toBe('deadlock');
    expect(ids(index, '条件反射')[0]).toBe('reflex');
  });

  it('boosts blocks whose note title matches, below a body match', () => {
    const index = indexOf([
      doc('titled', 'Turn the heat down after searing.', { title: 'Steak' }),
      doc('other', 'Turn the heat down after searing.', { title: 'Fish' }),
      doc('body', 'A steak needs a smoking hot pan.', { title: 'Pans' }),
    ]);
    expect(TITLE_BOOST).toBeGreaterThan(0);
    expect(TITLE_BOOST).toBeLessThan(1);
    const hits = index.search('steak', { limit: 5 });
    expect(hits.map((hit) => hit.block_id)).toEqual(['body', 'titled']);
    expect(index.search('heat', { limit: 5 }).map((hit) => hit.score)).toEqual([
      expect.any(Number),
      expect.any(Number),
    ]);
  });

  it('breaks score ties by block id so results are stable', () => {
    const index = indexOf([doc('b', 'same words'), doc('c', 'same words'), doc('a', 'same words')]);
    expect(ids(index, 'same')).toEqual(['a', 'b', 'c']);
  });

  it('respects the limit', () => {
    const index = indexOf(
      Array.from({ length: 30 }, (_, i) => doc(`d${String(i).padStart(2, '0')}`, 'shared')),
    );
    expect(index.search('shared', { limit: 7 })).toHaveLength(7);
    expect(index.search('shared', { limit: 0 })).toEqual([]);
  });
});

describe('FullTextIndex: Chinese words match as words', () => {
  const index = indexOf([
    doc('process', '进程是资源分配的单位。'),
    doc('further', '进一步优化这个过程。'),
    doc('database', '数据库的索引要建在区分度高的列上。'),
    doc('data', '数据分析放在仓库里。'),
    doc('scheduling', '进程的调度由内核完成。'),
    doc('deadlock', '死锁的四个必要条件：互斥、占有并等待、不可抢占、循环等待。'),
    doc('door', '门锁坏了，死机了。'),
    doc('titled', 'Notes from the lecture.', { title: '进程与线程' }),
    doc('data-title', '数据', { title: '数据' }),
  ]);

  it('a word does not match blocks that hold its characters apart', () => {
    expect(ids(index, '进程').sort()).toEqual(['process', 'scheduling', 'titled']);
    expect(ids(index, '死锁')).toEqual(['deadlock']);
  });

  it('a word of three or four characters needs nearly all of its bigrams', () => {
    expect(ids(index, '数据库')).toEqual(['database']);
    // 进程 and 调度 are there, 程调 is not: two of three.
    expect(ids(index, '进程调度')).toEqual(['scheduling']);
  });

  it('a term in the body and the title counts once', () => {
    // "data-title" holds 数据 twice but not 据库.
    expect(ids(index, '数据库')).not.toContain('data-title');
  });

  it('a longer question matches by any of its bigrams, best first', () => {
    expect(ids(index, '死锁发生需要什么条件')[0]).toBe('deadlock');
  });

  it('a single character still matches by itself', () => {
    expect(ids(index, '锁').sort()).toEqual(['deadlock', 'door']);
  });

  it('English words in the query still match any block that holds one', () => {
    expect(ids(index, 'lecture 数据库').sort()).toEqual(['database', 'titled']);
  });
});

describe('FullTextIndex: filters', () => {
  const index = indexOf([
    doc('os', 'scheduler notes', { folder: 'cs/os', tags: ['os', 'exam'] }),
    doc('osx', 'scheduler notes', { folder: 'cs/osx', tags: ['os'] }),
    doc('net', 'scheduler notes', { folder: 'cs/net', tags: ['exam'] }),
    doc('deep', 'scheduler notes', { folder: 'cs/os/linux', tags: ['os', 'exam'] }),
  ]);
  const search = (filter: { folder?: string; tags?: string[] }): string[] =>
    index.search('scheduler', { limit: 10, filter }).map((hit) => hit.block_id);

  it('matches a folder and its sub-folders, not sibling prefixes', () => {
    expect(search({ folder: 'cs/os' })).toEqual(['deep', 'os']);
    expect(search({ folder: '' })).toHaveLength(4);
  });

  it('requires every listed tag', () => {
    expect(search({ tags: ['os', 'exam'] })).toEqual(['deep', 'os']);
    expect(search({ tags: ['exam'], folder: 'cs/net' })).toEqual(['net']);
    expect(search({ tags: ['missing'] })).toEqual([]);
  });

  it('matches tags in any spelling (`#OS` and `os` are one tag)', () => {
    expect(search({ tags: ['OS', 'Exam'] })).toEqual(['deep', 'os']);
  });
});

describe('FullTextIndex: highlights', () => {
  it('marks the matched words with offsets into the block text', () => {
    const text = 'Deadlock needs four Coffman conditions.';
    const index = indexOf([doc('a', text)]);
    const [hit] = index.search('conditions for a deadlock', { limit: 1 });
    expect(hit?.highlights.map(({ start, end }) => text.slice(start, end))).toEqual([
      'Deadlock',
      'conditions',
    ]);
  });

  it('marks Chinese words as one range, not every shared character', () => {
    const text = '操作系统中的死锁问题，锁要按顺序获取。';
    const index = indexOf([doc('a', text)]);
    const [hit] = index.search('死锁', { limit: 1 });
    expect(hit?.highlights.map(({ start, end }) => text.slice(start, end))).toEqual(['死锁']);
  });

  it('marks no stray characters of a block that holds the word only in pieces', () => {
    const text = '门锁坏了，死机了';
    const index = indexOf([doc('a', text)]);
    expect(index.highlights('a', '死锁')).toEqual([]);
    expect(index.highlights('a', '锁').map(({ start, end }) => text.slice(start, end))).toEqual(['锁']);
  });

  it('maps highlights back through full-width text', () => {
    const text = '显卡：ＧＰＵ显存不足';
    const index = indexOf([doc('a', text)]);
    const [hit] = index.search('gpu 显存', { limit: 1 });
    expect(hit?.highlights.map(({ start, end }) => text.slice(start, end))).toEqual(['ＧＰＵ显存']);
    expect(index.highlights('a', 'gpu')).toEqual([{ start: 3, end: 6 }]);
    expect(index.highlights('missing', 'gpu')).toEqual([]);
  });
});

describe('FullTextIndex: incremental updates', () => {
  it('update replaces the old text: old words stop matching, new ones match', () => {
    const index = indexOf([doc('a', 'the first draft mentions kumquats'), doc('b', 'unrelated text')]);
    index.update(doc('a', 'the second draft mentions persimmons'));
    expect(ids(index, 'kumquats')).toEqual([]);
    expect(ids(index, 'persimmons')).toEqual(['a']);
    expect(index.size).toBe(2);
  });

  it('update can move a block into another folder or note title', () => {
    const index = indexOf([doc('a', 'budget', { folder: 'work', title: 'Plans' })]);
    index.update(doc('a', 'budget', { folder: 'home', title: 'Groceries' }));
    expect(index.search('budget', { limit: 5, filter: { folder: 'work' } })).toEqual([]);
    expect(ids(index, 'groceries')).toEqual(['a']);
    expect(ids(index, 'plans')).toEqual([]);
  });

  it('a removed block never returns, and removing twice is a no-op', () => {
    const index = indexOf([doc('a', 'alpha beta'), doc('b', 'beta gamma')]);
    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(ids(index, 'alpha')).toEqual([]);
    expect(ids(index, 'beta')).toEqual(['b']);
    expect(index.has('a')).toBe(false);
  });

  it('removeNote removes every block of the note from every query', () => {
    const notes = loadCorpus().slice(0, 40);
    const index = indexOf(notes.flatMap(documentsOf));
    const victim = notes[3];
    if (!victim) throw new Error('corpus too small');
    const blocks = documentsOf(victim);
    expect(index.removeNote(victim.note_id)).toBe(blocks.length);
    expect(index.blocksOf(victim.note_id)).toEqual([]);
    for (const block of blocks) {
      const hits = index.search(`${victim.title} ${block.text}`, { limit: 1000 });
      expect(hits.some((hit) => hit.note_id === victim.note_id)).toBe(false);
    }
    expect(index.removeNote(victim.note_id)).toBe(0);
  });

  it('after add + remove, scores equal those of an index that never had the block', () => {
    const base = [doc('a', 'shared words here'), doc('b', 'shared other words', { title: 'shared title' })];
    const churned = indexOf(base);
    churned.add(doc('x', 'shared shared shared extra words', { title: 'shared' }));
    churned.update(doc('a', 'temporary'));
    churned.update(base[0] as FullTextDocument);
    churned.remove('x');
    const fresh = indexOf(base);
    for (const query of ['shared', 'words', 'title other']) {
      expect(churned.search(query, { limit: 10 })).toEqual(fresh.search(query, { limit: 10 }));
    }
  });

  it('after many edits of the corpus in a shuffled order, ranks as an index built from the final blocks', () => {
    const blocks = loadCorpus().flatMap(documentsOf);
    const churned = indexOf(blocks);
    // Every third block removed, every fifth edited and then restored: postings leave from the middle of lists.
    blocks.forEach((block, i) => {
      if (i % 3 === 0) churned.remove(block.block_id);
      else if (i % 5 === 0) churned.update({ ...block, text: `${block.text} 修改 edited` });
    });
    blocks.forEach((block, i) => {
      if (i % 5 === 0 && i % 3 !== 0) churned.update(block);
    });
    const fresh = indexOf(blocks.filter((_, i) => i % 3 !== 0));
    expect(churned.size).toBe(fresh.size);
    for (const query of ['进程调度', 'deadlock conditions', 'kuber', 'edited', '修改', 'the memory']) {
      for (const prefix of [false, true]) {
        expect(churned.search(query, { limit: 20, prefix })).toEqual(
          fresh.search(query, { limit: 20, prefix }),
        );
      }
    }
  });

  it('restoring a deleted note brings it back', () => {
    const index = indexOf([doc('a', 'restorable content', { note_id: 'n1' })]);
    index.removeNote('n1');
    expect(ids(index, 'restorable')).toEqual([]);
    index.add(doc('a', 'restorable content', { note_id: 'n1' }));
    expect(ids(index, 'restorable')).toEqual(['a']);
  });

  it('refuses to add a block id twice', () => {
    const index = indexOf([doc('a', 'one')]);
    expect(() => index.add(doc('a', 'two'))).toThrow(AppError);
    try {
      index.add(doc('a', 'two'));
    } catch (error) {
      expect((error as AppError).code).toBe('STATE_CONFLICT');
    }
  });
});

describe('FullTextIndex: serialisation', () => {
  const queries = ['deadlock conditions', '死锁 条件', 'sourdough', '红烧肉 糖色', 'Python 装饰器', 'tcp'];

  function corpusIndex(): FullTextIndex {
    const index = indexOf(loadCorpus().flatMap(documentsOf));
    // Leave holes and replaced blocks behind, as a real session would.
    index.removeNote('note_en-os-scheduling');
    index.update({
      ...(index.get('note_zh-os-deadlock#1') as FullTextDocument),
      text: '死锁：四个条件同时成立。',
    });
    return index;
  }

  it('round-trips through JSON with identical results', () => {
    const index = corpusIndex();
    const loaded = FullTextIndex.fromJSON(JSON.parse(JSON.stringify(index)));
    expect(loaded.size).toBe(index.size);
    for (const query of queries) {
      expect(loaded.search(query, { limit: 20 })).toEqual(index.search(query, { limit: 20 }));
      const filter = { folder: 'cs', tags: ['os'] };
      expect(loaded.search(query, { limit: 20, filter })).toEqual(index.search(query, { limit: 20, filter }));
    }
    expect(JSON.stringify(loaded.toJSON())).toBe(JSON.stringify(index.toJSON()));
  });

  it('keeps working incrementally after a load', () => {
    const loaded = FullTextIndex.fromJSON(JSON.parse(JSON.stringify(corpusIndex())));
    loaded.add(doc('fresh', 'a brand new zanzibar block', { note_id: 'new-note' }));
    loaded.removeNote('note_en-os-deadlock');
    expect(ids(loaded, 'zanzibar')).toEqual(['fresh']);
    expect(
      loaded.search('Coffman deadlock', { limit: 50 }).some((hit) => hit.note_id === 'note_en-os-deadlock'),
    ).toBe(false);
  });

  it('stays compact: the whole snapshot, text and ids included, under 6 times the text', () => {
    const documents = loadCorpus().flatMap(documentsOf);
    const snapshot = JSON.stringify(indexOf(documents).toJSON());
    const textLength = documents.reduce((total, document) => total + document.text.length, 0);
    // Measured 4.9x: the text once, block ids, then mostly Chinese unigram and bigram postings.
    expect(snapshot.length).toBeLessThan(textLength * 6);
  });

  it('refuses snapshots of another format or tokenizer with STATE_CONFLICT', () => {
    const snapshot = indexOf([doc('a', 'x')]).toJSON();
    for (const bad of [
      { ...snapshot, tokenizer: 'mixed-v0' },
      { ...snapshot, version: 99 },
      { ...snapshot, documents: [['a']] },
      { ...snapshot, documents: [['a', 5, 'x', 1, 0]] },
      { ...snapshot, body: { terms: 'x', postings: [1, 4] } },
      { ...snapshot, body: { terms: 'x', postings: [1, -2] } },
      { ...snapshot, body: { terms: 'x y', postings: [1, 0] } },
      { ...snapshot, body: { terms: 'x', postings: [1, 0, 7] } },
      { ...snapshot, body: [] },
      null,
      'nonsense',
    ]) {
      expect(() => FullTextIndex.fromJSON(bad)).toThrow(
        expect.objectContaining({
          code: 'STATE_CONFLICT',
          details: expect.objectContaining({ index: 'full_text' }),
        }),
      );
    }
  });
});

describe('FullTextIndex: search as you type (prefix)', () => {
  const typed = (index: FullTextIndex, query: string): string[] =>
    index.search(query, { limit: 10, prefix: true }).map((hit) => hit.block_id);

  it('completes the last word: "kuber" finds "kubernetes", and marks the whole word', () => {
    const index = indexOf([doc('k8s', 'Deploying to Kubernetes clusters'), doc('other', 'Cooking rice')]);
    expect(ids(index, 'kuber')).toEqual([]);
    expect(typed(index, 'kuber')).toEqual(['k8s']);
    expect(typed(index, 'deploying kuber')).toEqual(['k8s']);
    const [hit] = index.search('kuber', { limit: 1, prefix: true });
    expect(hit?.highlights).toEqual([{ start: 13, end: 23 }]);
  });

  it('completes only the last word, and only while nothing follows it', () => {
    const index = indexOf([doc('k8s', 'kubernetes pods'), doc('pod', 'pods only')]);
    expect(typed(index, 'kuber pods')).toEqual(
      ['pod', 'k8s'].sort((a, b) => (a === 'k8s' ? -1 : b === 'k8s' ? 1 : 0)),
    );
    expect(typed(index, 'kuber ')).toEqual([]);
    expect(typed(index, 'kuber.')).toEqual([]);
  });

  it('ranks the word as typed above its completions, at PREFIX_MATCH_WEIGHT of an exact match', () => {
    const index = indexOf([doc('exact', 'cache'), doc('longer', 'cached'), doc('none', 'nothing')]);
    const hits = index.search('cache', { limit: 5, prefix: true });
    expect(hits.map((hit) => hit.block_id)).toEqual(['exact', 'longer']);
    expect(PREFIX_MATCH_WEIGHT).toBeLessThan(1);
  });

  it('counts a block once per typed word (its best completion), however many completions it holds', () => {
    const index = indexOf([doc('many', 'kubectl kubelet kubeadm'), doc('single', 'kubectl apply now')]);
    const scoreOf = (query: string, prefix: boolean): number =>
      index.search(query, { limit: 5, prefix }).find((hit) => hit.block_id === 'many')?.score ?? 0;
    // kubelet and kubeadm are the rarest completions (one block each): the best one counts, once.
    expect(scoreOf('kube', true)).toBeCloseTo(PREFIX_MATCH_WEIGHT * scoreOf('kubelet', false), 10);
  });

  it('ignores one-letter prefixes and bounds the completions of a short one', () => {
    const words = Array.from(
      { length: MAX_PREFIX_EXPANSIONS + 10 },
      (_, i) => `ab${String(i).padStart(3, '0')}x`,
    );
    const index = indexOf(words.map((word, i) => doc(`d${i}`, word)));
    expect(index.search('a', { limit: 500, prefix: true })).toEqual([]);
    expect(index.search('ab', { limit: 500, prefix: true })).toHaveLength(MAX_PREFIX_EXPANSIONS);
  });

  it('is off unless asked, so finished questions match whole words', () => {
    const index = indexOf([doc('k8s', 'kubernetes')]);
    expect(index.search('kuber', { limit: 5 })).toEqual([]);
  });

  it('sharesTerm: true when the block holds a query term, false for made-up words and unknown blocks', () => {
    const index = indexOf([doc('tcp', 'TCP handshake'), doc('zh', '死锁的条件')]);
    expect(index.sharesTerm('tcp', 'handshake protocol')).toBe(true);
    expect(index.sharesTerm('zh', '死锁')).toBe(true);
    expect(index.sharesTerm('zh', '锁')).toBe(true);
    // One character of a Chinese word is not the word.
    expect(index.sharesTerm('zh', '死亡')).toBe(false);
    expect(index.sharesTerm('tcp', 'qzxv blorft')).toBe(false);
    expect(index.sharesTerm('missing', 'handshake')).toBe(false);
  });
});

describe('FullTextIndex: per-note segments', () => {
  const corpus = loadCorpus().flatMap(documentsOf);
  const noteIds = [...new Set(corpus.map((document) => document.note_id))];

  it('an index loaded from its notes’ segments ranks every query exactly as the original', () => {
    const original = indexOf(corpus);
    const loaded = new FullTextIndex();
    loaded.addSegments(noteIds.map((noteId) => original.noteSegment(noteId)));
    expect(loaded.size).toBe(original.size);
    for (const query of ['进程调度', 'deadlock conditions', 'kuber', '死锁', 'the']) {
      for (const prefix of [false, true]) {
        expect(loaded.search(query, { limit: 20, prefix })).toEqual(
          original.search(query, { limit: 20, prefix }),
        );
      }
    }
  });

  it('stores term counts only where a term repeats, and nothing for an unknown note', () => {
    const index = indexOf([
      doc('a', 'apple apple banana', { note_id: 'n', title: 'Fruit', folder: 'f', tags: ['t'] }),
      doc('b', 'cherry', { note_id: 'n', title: 'Fruit', folder: 'f', tags: ['t'] }),
    ]);
    expect(index.noteSegment('n')).toEqual({
      note_id: 'n',
      title: 'Fruit',
      folder: 'f',
      tags: ['t'],
      title_terms: 'fruit',
      title_tf: [],
      blocks: [
        ['a', 'apple apple banana', 'apple banana', [2, 1]],
        ['b', 'cherry', 'cherry', []],
      ],
    });
    expect(index.noteSegment('missing')).toBeUndefined();
  });

  it('refuses a malformed segment or a block stored twice with STATE_CONFLICT', () => {
    const index = indexOf([doc('a', 'apple', { note_id: 'n' })]);
    const segment = index.noteSegment('n')!;
    const codeOf = (segments: unknown[]) => {
      try {
        new FullTextIndex().addSegments(segments);
      } catch (error) {
        return error instanceof AppError ? error.code : 'other';
      }
      return 'none';
    };
    expect(codeOf([segment])).toBe('none');
    expect(codeOf([segment, segment])).toBe('STATE_CONFLICT');
    expect(codeOf([{ ...segment, blocks: [['a', 'apple', 'apple', [0]]] }])).toBe('STATE_CONFLICT');
    expect(codeOf([{ ...segment, blocks: [['a', 'apple', 'apple banana', [1]]] }])).toBe('STATE_CONFLICT');
    expect(codeOf([{ format: 'nonsense' }])).toBe('STATE_CONFLICT');
  });
});

describe('FullTextIndex: aliases are searched with the title', () => {
  const deadlock = (block_id: string, text: string): FullTextDocument =>
    doc(block_id, text, { note_id: 'deadlock', title: 'Deadlock', aliases: ['死锁', 'Process Scheduling'] });

  it('finds a note by an alias as by its title, a typed prefix of one too', () => {
    const index = indexOf([
      deadlock('d1', 'Four conditions.'),
      doc('other', 'Nothing to see.', { title: 'Other' }),
    ]);
    expect(ids(index, '死锁')).toEqual(['d1']);
    expect(index.search('sched', { limit: 10, prefix: true }).map((hit) => hit.block_id)).toEqual(['d1']);
    expect(ids(index, 'deadlock')).toEqual(['d1']);
  });

  it('forgets an alias when the block goes, and keeps aliases through a snapshot and a segment', () => {
    const index = indexOf([deadlock('d1', 'Four conditions.'), deadlock('d2', 'Break one.')]);
    const loaded = FullTextIndex.fromJSON(JSON.parse(JSON.stringify(index)));
    expect(ids(loaded, '死锁')).toEqual(['d1', 'd2']);
    const segment = index.noteSegment('deadlock');
    expect(segment?.aliases).toEqual(['死锁', 'Process Scheduling']);
    const fromSegment = new FullTextIndex();
    fromSegment.addSegments([segment]);
    expect(ids(fromSegment, '死锁')).toEqual(['d1', 'd2']);
    for (const each of [index, loaded, fromSegment]) {
      each.removeNote('deadlock');
      each.add(doc('d1', 'Four conditions.', { note_id: 'deadlock', title: 'Deadlock' }));
      expect(ids(each, '死锁')).toEqual([]);
      expect(ids(each, 'deadlock')).toEqual(['d1']);
    }
  });
});
