import { describe, expect, it } from 'vitest';
import { summarizeWarnings, translateWarning } from './export-warnings';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-cn';
import { translate } from '../i18n/translate';
import type { MessageKey, MessageParams } from '../i18n';

const echo = (key: string, params: Readonly<Record<string, string | number>>) =>
  `${key} ${JSON.stringify(params)}`;

describe('translateWarning', () => {
  it.each([
    [
      'PDF: images that are not stored in the note (links to the web) are shown as their alt text.',
      'export.warning.webImage {"format":"PDF"}',
    ],
    ['DOCX: raw HTML is left out.', 'export.warning.rawHtml {"format":"DOCX"}'],
    [
      'PDF: a formula could not be typeset (Undefined control sequence: \\foo); it is shown as its TeX source.',
      'export.warning.formula {"format":"PDF","reason":"Undefined control sequence: \\\\foo"}',
    ],
    ['y = 0/0 has no finite value in the domain.', 'export.warning.noValue {"label":"y = 0/0"}'],
    [
      'FUNCTION_PLOT_PARSE_FAILED: Function plot (line 4, column 1) kept as source: Unknown name "foo"',
      'export.warning.plotSource {"line":"4","message":"Unknown name \\"foo\\""}',
    ],
    [
      'FUNCTION_PLOT_PARSE_FAILED: Function plot kept as source: Unknown name "foo"',
      'export.warning.plotSourceUnplaced {"message":"Unknown name \\"foo\\""}',
    ],
    [
      "MERMAID_PARSE_FAILED: Diagram (line 12) kept as source: Parse error on line 2: Expecting 'AMP', 'COLON', got 'EOF'",
      'export.warning.diagramSource {"line":"12","message":"preview.diagramEndsEarlyAt {\\"line\\":2}"}',
    ],
    [
      "MERMAID_PARSE_FAILED: Diagram (line 3) kept as source: Parse error on line 1: Expecting 'SEMI', got 'NODE_STRING'",
      'export.warning.diagramSource {"line":"3","message":"preview.diagramSyntaxAt {\\"line\\":1}"}',
    ],
    [
      'MERMAID_RENDER_FAILED: Diagram (line 3) kept as source: Cannot read properties of undefined',
      'export.warning.diagramSource {"line":"3","message":"preview.diagramFailedBare {}"}',
    ],
    [
      'MERMAID_SVG_UNSAFE: Diagram kept as source: The diagram contained content that is not allowed.',
      'exportToast.diagramSourceUnplaced {"message":"preview.diagramUnsafe {}"}',
    ],
  ])('names the kind of %s', (warning, expected) => {
    expect(translateWarning(warning, echo)).toBe(expected);
  });

  it('says why a plot or a diagram is kept as source in Chinese, the position once', () => {
    const chinese = (key: MessageKey, params: MessageParams) => translate(zhCN, en, 'zh-CN', key, params);
    expect(
      translateWarning(
        'FUNCTION_PLOT_PARSE_FAILED: Function plot (line 4, column 8) kept as source: ' +
          'Write the product after "/" or "%" in brackets, e.g. 1/(2x) or (1/2)x.',
        chinese,
      ),
    ).toBe('第 4 行的函数图像保留为源码：“/”或“%”后面的乘积请加括号，例如 1/(2x) 或 (1/2)x。');
    expect(
      translateWarning(
        'FUNCTION_PLOT_PARSE_FAILED: Function plot kept as source: domain needs two numbers, low before high: "-5, 5".',
        chinese,
      ),
    ).toBe('一个函数图像保留为源码：domain 需要两个数字，小的在前，例如“-5, 5”。');
    expect(
      translateWarning(
        "MERMAID_PARSE_FAILED: Diagram (line 12) kept as source: Parse error on line 2: Expecting 'NODE_STRING', got 'EOF'",
        chinese,
      ),
    ).toBe('第 12 行的图保留为源码：此图表第 2 行有语法错误：内容不完整，后面还应有内容。');
  });

  it("says why a diagram is kept as source as the preview does, without the parser's tokens", () => {
    const english = (key: MessageKey, params: MessageParams) => translate(en, en, 'en', key, params);
    const warning =
      "MERMAID_PARSE_FAILED: Diagram (line 5) kept as source: Parse error on line 1: Expecting 'SEMI', 'NEWLINE', got 'NODE_STRING'";
    expect(translateWarning(warning, english)).toBe(
      'A diagram (line 5) is kept as its source: This diagram has a syntax error on line 1.',
    );
    const chinese = (key: MessageKey, params: MessageParams) => translate(zhCN, en, 'zh-CN', key, params);
    expect(
      translateWarning(
        "MERMAID_PARSE_FAILED: Diagram kept as source: Parse error on line 2: Expecting 'AMP', got 'EOF'",
        chinese,
      ),
    ).toBe('一个图保留为源码：此图表第 2 行有语法错误：内容不完整，后面还应有内容。');
  });

  it('passes a warning of no known kind on as it is', () => {
    expect(translateWarning('Something new happened.', echo)).toBe('Something new happened.');
  });
});

describe('summarizeWarnings', () => {
  const words: Record<string, string> = {
    'export.warningsJoin': '；',
    'export.warningsJoinSentences': '',
    'export.warningsMore': '{list}；另有 {more} 条',
    'export.warningsMoreAfterSentence': '{list}另有 {more} 条。',
    'export.warningsList': '已导出 {file}，有 {count} 条警告：{list}',
    'export.warning.rawHtml': '{format}：原始 HTML 被略去。',
    'plot.warning.unknownSettingGuess': '未知设置“{name}”已忽略——你是不是想写“{meant}”？',
  };
  const zh = (key: string, params: Readonly<Record<string, string | number>>) =>
    (words[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));

  it('names every warning of an export with three, each in the user language', () => {
    const { message, all } = summarizeWarnings(
      'notes.pdf',
      [
        'PDF: raw HTML is left out.',
        'Unknown setting "domian" is ignored; did you mean "domain"?',
        'Something new happened.',
      ],
      zh,
    );
    expect(message).toBe(
      '已导出 notes.pdf，有 3 条警告：PDF：原始 HTML 被略去。未知设置“domian”已忽略——你是不是想写“domain”？Something new happened.',
    );
    expect(all).toHaveLength(3);
  });

  it('spells out the first three of more and counts the rest, keeping the whole list', () => {
    const warnings = ['one', 'two', 'three', 'four', 'five'];
    const { message, all } = summarizeWarnings('n.html', warnings, zh);
    expect(message).toBe('已导出 n.html，有 5 条警告：one；two；three；另有 2 条');
    expect(all).toEqual(warnings);
  });

  it('puts no "；" after a warning that ends its sentence, also before the count of the rest', () => {
    const warnings = ['PDF: raw HTML is left out.', 'two', 'PDF: raw HTML is left out.', 'four'];
    const { message } = summarizeWarnings('n.pdf', warnings, zh);
    expect(message).toBe(
      '已导出 n.pdf，有 4 条警告：PDF：原始 HTML 被略去。two；PDF：原始 HTML 被略去。另有 1 条。',
    );
    expect(message).not.toMatch(/[。？]；/);
  });
});
