import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { datasetDescription, datasetName } from './dataset-name';

describe('dataset names', () => {
  afterEach(() => i18n.reset());

  it('names each shipped dataset in words, in the UI language', async () => {
    expect(datasetName('rag-core-v1')).toBe('Note search, Chinese and English');
    expect(datasetName('agent-core-v1')).toBe('Agent tasks on course notes');
    expect(datasetDescription({ dataset_id: 'agent-core-v1', description: 'Agent tasks over…' })).toMatch(
      /^Small jobs on an operating-systems course notebook/,
    );
    await i18n.setLocale('zh-CN');
    expect(datasetName('rag-core-v1')).toBe('中英文笔记检索');
    expect(datasetName('agent-core-v1')).toBe('课程笔记上的智能体任务');
    expect(datasetDescription({ dataset_id: 'rag-core-v1', description: 'Chinese and English…' })).toMatch(
      /^针对一组中英文笔记提问/,
    );
  });

  it('keeps the id and description a user-made or imported dataset came with', async () => {
    const mine = { dataset_id: 'my-notes', description: 'Questions about my field log' };
    expect(datasetName('my-notes')).toBe('my-notes');
    expect(datasetDescription(mine)).toBe('Questions about my field log');
    await i18n.setLocale('zh-CN');
    expect(datasetName('my-notes')).toBe('my-notes');
    expect(datasetDescription(mine)).toBe('Questions about my field log');
    // Names inherited from Object.prototype are ids like any other.
    expect(datasetName('constructor')).toBe('constructor');
  });
});
