import type { Token } from './tokenizer';

/**
 * What a full-text query asks of a block: it matches when it satisfies any
 * clause, and a clause is satisfied by `required` of its terms (in the body
 * or the title).
 *
 * A word is a clause of its own, so English keeps "any word" matching with
 * BM25 ranking the blocks that hold more of them first. A Chinese run is
 * different: "进程" is one word, not 进 or 程, and matching its characters one
 * by one made it match 180 of 300 notes ("进一步", "过程"). A run therefore
 * matches through its bigrams only (see `requiredBigrams` for how many); its
 * characters still add to the score.
 * A run of one character has no bigram and matches by the character.
 */
export interface QueryClause {
  /** Distinct index terms. */
  terms: string[];
  required: number;
}

export interface QueryPlan {
  clauses: QueryClause[];
  /**
   * Terms that add to a matching block's score but never make a block match:
   * the dictionary words of a run (an exact word ranks above a chance run of
   * its bigrams) and its characters.
   */
  bonus: string[];
}

type CjkKind = 'cjk_unigram' | 'cjk_bigram' | 'cjk_word';

interface CjkRun {
  end: number;
  terms: Record<CjkKind, string[]>;
}

/**
 * A run of up to four characters (three bigrams) is the term being looked
 * for: 数据库, 操作系统, 进程调度. It must be there nearly whole: all of its
 * bigrams but one in three (the 的 in "进程的调度"). A longer run is a phrase
 * or a question ("死锁发生需要什么条件"), where most bigrams are filler and a
 * note never holds them all; any one of them matches and BM25 ranks the blocks
 * that hold more first. Measured on the evaluation corpus (evaluation.test.ts):
 * requiring 2 bigrams of a question lost 5 % of hit@5 on Chinese queries.
 */
export const TERM_RUN_BIGRAMS = 3;

export function requiredBigrams(count: number): number {
  return count <= TERM_RUN_BIGRAMS ? count - Math.floor(count / 3) : 1;
}

/** The clauses of a query analysed by `analyze` (with dictionary words or without). */
export function planQuery(tokens: readonly Token[]): QueryPlan {
  const clauses: QueryClause[] = [];
  const bonus: string[] = [];
  const words = new Set<string>();
  const runs: CjkRun[] = [];
  for (const token of tokens) {
    if (token.kind === 'word') {
      if (!words.has(token.term)) clauses.push({ terms: [token.term], required: 1 });
      words.add(token.term);
      continue;
    }
    // The tokens of one run overlap or touch (bigrams bridge a dropped stop
    // character); two runs are always apart by at least the text between them.
    let run = runs.at(-1);
    if (!run || token.start > run.end) {
      run = { end: token.end, terms: { cjk_unigram: [], cjk_bigram: [], cjk_word: [] } };
      runs.push(run);
    }
    run.end = Math.max(run.end, token.end);
    run.terms[token.kind].push(token.term);
  }
  const planned = new Set<string>();
  for (const run of runs) {
    const bigrams = [...new Set(run.terms.cjk_bigram)];
    const terms = bigrams.length > 0 ? bigrams : [...new Set(run.terms.cjk_unigram)];
    const key = terms.join(' ');
    if (terms.length > 0 && !planned.has(key)) {
      planned.add(key);
      clauses.push({ terms, required: bigrams.length > 0 ? requiredBigrams(terms.length) : 1 });
    }
    // Scored, never matched: a block holding the characters of the run as well
    // ranks higher (measured: +1.4 % hybrid hit@1 on the corpus, none lost).
    for (const term of [...run.terms.cjk_word, ...run.terms.cjk_unigram]) {
      if (!bonus.includes(term)) bonus.push(term);
    }
  }
  return { clauses, bonus };
}

/** Every term of the plan once, clause terms first. */
export function planTerms(plan: QueryPlan): string[] {
  return [...new Set([...plan.clauses.flatMap((clause) => clause.terms), ...plan.bonus])];
}
