import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-cn';
import { emptyResultKey, fallbackNoticeKey, noResultsHintKey } from './search-notices';

describe('fallbackNoticeKey', () => {
  it('says which cause kept vectors from answering, each with where to fix it', () => {
    expect(fallbackNoticeKey('INDEX_MODEL_MISMATCH')).toBe('search.fallback.INDEX_MODEL_MISMATCH');
    expect(fallbackNoticeKey('VECTOR_INDEX_REBUILD_REQUIRED')).toBe('search.fallbackNotice.rebuildRequired');
    expect(fallbackNoticeKey('EMBEDDING_MODEL_UNAVAILABLE')).toBe('search.fallbackNotice.modelUnavailable');
    expect(fallbackNoticeKey('STORAGE_ERROR')).toBe('search.fallbackNotice.other');
    for (const code of [
      'VECTOR_INDEX_REBUILD_REQUIRED',
      'EMBEDDING_MODEL_UNAVAILABLE',
      'STORAGE_ERROR',
    ] as const) {
      expect(zhCN[fallbackNoticeKey(code)]).toContain('设置 → 搜索');
      expect(en[fallbackNoticeKey(code)]).toContain('Settings → Search');
    }
  });

  it('tells a model that failed to load apart from an index that is not built', () => {
    expect(zhCN[fallbackNoticeKey('EMBEDDING_MODEL_UNAVAILABLE')]).toContain('向量模型无法加载');
    expect(zhCN[fallbackNoticeKey('VECTOR_INDEX_REBUILD_REQUIRED')]).toContain('重建索引');
  });
});

describe('emptyResultKey', () => {
  it('names the folder or tag the search was narrowed to', () => {
    expect(emptyResultKey({ folder: null, tag: null })).toBe('search.noResults');
    expect(emptyResultKey({ folder: '课程/操作系统', tag: null })).toBe('search.noResultsInFolder');
    expect(emptyResultKey({ folder: null, tag: '复习' })).toBe('search.noResultsInTag');
    // Both chosen, one sentence names the folder.
    expect(emptyResultKey({ folder: '课程', tag: '复习' })).toBe('search.noResultsInFolder');
  });
});

describe('noResultsHintKey', () => {
  it('suggests spelling or a shorter beginning for one word, spaces and fewer words for several', () => {
    for (const query of ['xqzvbnm', ' 靐龘 ', '进程', 'kubernetes']) {
      expect(noResultsHintKey(query)).toBe('search.noResultsHintOneWord');
    }
    for (const query of ['cluster monitoring', '集群监控', '死锁发生需要什么条件', '集群 监控']) {
      expect(noResultsHintKey(query)).toBe('search.noResultsHint');
    }
    expect(en['search.noResultsHintOneWord']).not.toContain('spaces');
    expect(zhCN['search.noResultsHintOneWord']).not.toContain('空格');
  });
});
