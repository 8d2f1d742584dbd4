import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { agentOutcome } from './report-text';

describe('agentOutcome', () => {
  afterEach(() => i18n.reset());

  it('a completed run whose check failed is a failed case, and says why', async () => {
    expect(agentOutcome('completed', false)).toBe('Failed: the run completed, but its check did not pass');
    expect(agentOutcome('completed', true)).toBe('Passed');
    expect(agentOutcome('failed', false)).toBe('Failed (run status: Failed)');
    await i18n.setLocale('zh-CN');
    expect(agentOutcome('completed', false)).toBe('失败：运行已完成，但检查没有通过');
  });
});
