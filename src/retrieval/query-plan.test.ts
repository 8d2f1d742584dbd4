import { describe, expect, it } from 'vitest';
import { planQuery, planTerms, requiredBigrams } from './query-plan';
import { analyze } from './tokenizer';

const plan = (query: string) => planQuery(analyze(query, { dictionaryWords: false }));

describe('planQuery', () => {
  it('makes each distinct word a clause of its own', () => {
    expect(plan('deadlock conditions deadlock').clauses).toEqual([
      { terms: ['deadlock'], required: 1 },
      { terms: ['condition'], required: 1 },
    ]);
  });

  it('matches a Chinese run by its bigrams and only scores its characters', () => {
    const planned = plan('进程');
    expect(planned.clauses).toEqual([{ terms: ['进程'], required: 1 }]);
    expect(planned.bonus).toEqual(['进', '程']);
  });

  it('keeps runs apart that a space or a word separates', () => {
    expect(plan('进程 线程').clauses).toEqual([
      { terms: ['进程'], required: 1 },
      { terms: ['线程'], required: 1 },
    ]);
    expect(plan('Rust所有权').clauses).toEqual([
      { terms: ['rust'], required: 1 },
      { terms: ['所有', '有权'], required: 2 },
    ]);
  });

  it('bridges a stop character inside a run', () => {
    // 的 is no unigram, but its bigrams keep the run whole.
    expect(plan('我的笔记').clauses).toEqual([{ terms: ['我的', '的笔', '笔记'], required: 2 }]);
  });

  it('matches a one-character run by the character, and a lone stop character not at all', () => {
    expect(plan('锁').clauses).toEqual([{ terms: ['锁'], required: 1 }]);
    expect(plan('的').clauses).toEqual([]);
  });

  it('adds a repeated run once', () => {
    expect(plan('进程 进程').clauses).toHaveLength(1);
  });

  it('adds the dictionary words of a run as score-only terms', () => {
    // A segmenter's word, as analyze adds it where the runtime has one.
    const tokens = [
      ...analyze('操作系统', { dictionaryWords: false }),
      { term: '操作系统', kind: 'cjk_word' as const, start: 0, end: 4 },
    ];
    const planned = planQuery(tokens);
    expect(planned.clauses).toEqual([{ terms: ['操作', '作系', '系统'], required: 2 }]);
    expect(planned.bonus).toEqual(['操作系统', '操', '作', '系', '统']);
    expect(planTerms(planned)).toEqual(['操作', '作系', '系统', '操作系统', '操', '作', '系', '统']);
  });
});

describe('requiredBigrams', () => {
  it('needs nearly all bigrams of a short term and any one of a longer phrase', () => {
    expect([1, 2, 3, 4, 9].map(requiredBigrams)).toEqual([1, 2, 2, 1, 1]);
  });
});
