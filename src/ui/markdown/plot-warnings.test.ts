import { describe, expect, it } from 'vitest';
import { formatPlotMessage, PLOT_MESSAGE_CODES } from '../../core/function-plot-messages';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-cn';
import { translate } from '../i18n/translate';
import type { MessageKey, MessageParams } from '../i18n';
import { translatePlotWarning } from './plot-warnings';

const chinese = (key: MessageKey, params: MessageParams) => translate(zhCN, en, 'zh-CN', key, params);

describe('translatePlotWarning', () => {
  it.each(PLOT_MESSAGE_CODES)('says %s in Chinese, every placeholder filled', (code) => {
    const params = { character: '.', found: ')', name: 'foo', functions: 'sin, cos', constants: 'pi, e' };
    const said = translatePlotWarning(
      formatPlotMessage(code, {
        ...params,
        variables: 'x',
        count: 1,
        min: 1,
        max: 2,
        got: 3,
        value: 'v',
        setting: 'domain',
        meant: 'label',
        before: '2',
      }),
      chinese,
    );
    expect(said).toBeDefined();
    expect(said).not.toMatch(/[{}]/);
    // The quoted names stay as written; no English sentence is left.
    expect(said).not.toMatch(/\b(?:the|is|but|found|write|expected|unknown|ignored|needs|takes|cannot)\b/i);
  });

  it('leaves a message of no known kind to the caller', () => {
    expect(translatePlotWarning('Something else.', chinese)).toBeUndefined();
  });
});
