import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { reasonText } from './report-text';

describe('reasonText in Chinese', () => {
  beforeEach(() => i18n.setLocale('zh-CN'));
  afterEach(() => i18n.reset());

  it('names the run status and a provider error in Chinese, with where to fix it', () => {
    expect(
      reasonText(
        'run failed (PROVIDER_UNAVAILABLE: The model went away.); expected tools not called: math.evaluate',
      ),
    ).toBe(
      '运行失败：AI 服务暂不可用。请在“设置 → AI 服务”中检查该模型的服务，然后重新运行；没有调用预期的工具：math.evaluate',
    );
    expect(reasonText('run cancelled')).toBe('运行已取消');
  });

  it('keeps an unknown error as the core wrote it, without a doubled full stop', () => {
    expect(reasonText('run failed (SOMETHING_NEW: boom.); no results')).toBe(
      '运行失败：boom；没有找到任何结果',
    );
  });
});
