import { describe, expect, it } from 'vitest';
import { formatPlotMessage } from '../function-plot-messages';
import { en } from '../../ui/i18n/en';
import { zhCN } from '../../ui/i18n/zh-cn';
import {
  documentLanguage,
  mermaidErrorSummary,
  PLOT_MESSAGES_ZH,
  readMermaidError,
  visualErrorText,
} from './diagram-error-text';

const TOKEN_LIST = "Expecting 'AMP', 'COLON', 'PIPE', 'NODE_STRING', got 'EOF'";

describe('readMermaidError', () => {
  it('reads the line and the parser’s words from a parse error', () => {
    expect(readMermaidError(`Parse error on line 2: ${TOKEN_LIST}`)).toEqual({
      syntax: true,
      line: 2,
      endsEarly: true,
      detail: TOKEN_LIST,
    });
    expect(readMermaidError("Parse error on line 3: Expecting 'SEMI', got 'PIPE'").endsEarly).toBe(false);
  });

  it('takes any other message as it is', () => {
    expect(readMermaidError('Loading chunk 12 failed.')).toEqual({
      syntax: false,
      endsEarly: false,
      detail: 'Loading chunk 12 failed.',
    });
  });
});

describe('mermaidErrorSummary', () => {
  it('says in words, in either language, which line has the error — no token list', () => {
    const read = readMermaidError("Parse error on line 4: Expecting 'SEMI', got 'PIPE'");
    expect(mermaidErrorSummary(read, 'en')).toBe('This diagram has a syntax error on line 4.');
    expect(mermaidErrorSummary(read, 'zh-CN')).toBe('此图表第 4 行有语法错误。');
    expect(
      mermaidErrorSummary(readMermaidError(`Parse error on line 2: ${TOKEN_LIST}`), 'zh-CN'),
    ).not.toMatch(/Expecting|AMP/);
  });

  it('says the same as the preview (the UI catalogs)', () => {
    const at = { syntax: true, line: 7, endsEarly: false, detail: '' };
    const early = { ...at, endsEarly: true };
    for (const [language, catalog] of [
      ['en', en],
      ['zh-CN', zhCN],
    ] as const) {
      expect(mermaidErrorSummary(at, language)).toBe(
        String(catalog['preview.diagramSyntaxAt']).replace('{line}', '7'),
      );
      expect(mermaidErrorSummary(early, language)).toBe(
        String(catalog['preview.diagramEndsEarlyAt']).replace('{line}', '7'),
      );
      expect(mermaidErrorSummary({ syntax: true, endsEarly: false, detail: '' }, language)).toBe(
        catalog['preview.diagramSyntax'],
      );
      expect(mermaidErrorSummary({ ...at, labelNeedsQuotes: true }, language)).toBe(
        `${String(catalog['preview.diagramSyntaxAt']).replace('{line}', '7')}${language === 'en' ? ' ' : ''}${catalog['plotHelp.mermaidLabelHint']}`,
      );
    }
  });

  // Mermaid 11's words for `A[输入信号 x(t)]`, `A[a[1]]`, `A[say "hi"]`: a shape's end expected, a bracket or string got.
  const SHAPE_ENDS =
    "Expecting 'SQE', 'DOUBLECIRCLEEND', 'PE', '-)', 'STADIUMEND', 'SUBROUTINEEND', 'PIPE', 'CYLINDEREND', 'DIAMOND_STOP', 'TAGEND', 'TRAPEND', 'INVTRAPEND', 'UNICODE_TEXT', 'TEXT', 'TAGSTART'";
  it.each(['PS', 'SQS', 'STR'])('tells how to quote a node label when the parser got %s inside it', (got) => {
    const summary = readMermaidError(
      `Parse error on line 2: ...A[输入信号 x(t)] --> B ----^ ${SHAPE_ENDS}, got '${got}'`,
    );
    expect(summary.labelNeedsQuotes).toBe(true);
    expect(mermaidErrorSummary(summary, 'en')).toContain('double quotes around it: A["x(t)"]');
    expect(mermaidErrorSummary(summary, 'zh-CN')).toContain('请用双引号括起来：A["x(t)"]');
  });

  it('gives no quoting hint for an arrow that ends the block early', () => {
    const summary = readMermaidError(`Parse error on line 3: ${TOKEN_LIST}`);
    expect(summary.labelNeedsQuotes).toBeUndefined();
    expect(mermaidErrorSummary(summary, 'en')).not.toContain('quotes');
  });
});

describe('visualErrorText (exported documents)', () => {
  it('writes a Mermaid parse error as a sentence in the document’s language, the token list as detail', () => {
    const message = `Parse error on line 2: ${TOKEN_LIST}`;
    expect(visualErrorText('mermaid', 'MERMAID_PARSE_FAILED', message, 'zh-CN')).toEqual({
      summary: '此图表第 2 行有语法错误：内容不完整，后面还应有内容。',
      detail: TOKEN_LIST,
    });
    expect(visualErrorText('mermaid', 'MERMAID_PARSE_FAILED', message, 'en').summary).toBe(
      'This diagram has a syntax error on line 2: it ends where more was expected.',
    );
  });

  it('translates a plot’s message into Chinese, and keeps it in English for an English document', () => {
    const message = formatPlotMessage('missingClosingBracket');
    expect(visualErrorText('function_plot', 'FUNCTION_PLOT_PARSE_FAILED', message, 'zh-CN')).toEqual({
      summary: '函数图像无法绘制：末尾缺少“)”。',
      detail: '',
    });
    expect(
      visualErrorText(
        'function_plot',
        'X',
        formatPlotMessage('unknownName', { name: 'foo', functions: 'sin', constants: 'pi' }),
        'zh-CN',
      ).summary,
    ).toBe('函数图像无法绘制：未知名称“foo”。可用函数：sin；常量：pi。');
    expect(visualErrorText('function_plot', 'X', message, 'en').summary).toBe(
      `Plot could not be drawn: ${message}`,
    );
    expect(visualErrorText('function_plot', 'X', 'Something else.', 'zh-CN')).toEqual({
      summary: '函数图像无法绘制。',
      detail: 'Something else.',
    });
  });

  it('has the Chinese plot sentences of the UI catalog', () => {
    for (const [code, text] of Object.entries(PLOT_MESSAGES_ZH)) {
      const key = `plot.message.${code}` in zhCN ? `plot.message.${code}` : `plotHelp.${code}`;
      expect(text, code).toBe(zhCN[key as keyof typeof zhCN]);
    }
  });
});

describe('documentLanguage', () => {
  it('is Chinese once the text has Chinese characters', () => {
    expect(documentLanguage('State space: x = Ax')).toBe('en');
    expect(documentLanguage('状态空间 x = Ax')).toBe('zh-CN');
  });
});
