import { describe, expect, it } from 'vitest';
import { BUILTIN_DATASET_IDS, builtinDataset, isBuiltinDataset } from './builtin';

describe('shipped datasets', () => {
  it('loads each one on first use and parses it once', async () => {
    expect(BUILTIN_DATASET_IDS).toEqual(['rag-core-v1', 'agent-core-v1']);
    const [first, again] = await Promise.all([builtinDataset('rag-core-v1'), builtinDataset('rag-core-v1')]);
    expect(first).toMatchObject({ dataset_id: 'rag-core-v1', kind: 'rag' });
    expect(again).toBe(first);
    expect(await builtinDataset('agent-core-v1')).toMatchObject({
      dataset_id: 'agent-core-v1',
      kind: 'agent',
    });
  });

  it('knows nothing of any other id, including names inherited by every object', async () => {
    for (const id of ['my-notes', 'toString', '__proto__', '']) {
      expect(isBuiltinDataset(id)).toBe(false);
      expect(await builtinDataset(id)).toBeUndefined();
    }
  });
});
