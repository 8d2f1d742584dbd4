import { featureMessages } from '../i18n/feature-messages';
import type { Message } from '../i18n/translate';

/**
 * The theme settings' messages, kept apart until they are merged into
 * `i18n/en.ts` and `i18n/zh-cn.ts` (then `themeText` becomes `t`).
 */
export const themeEn = {
  'themes.title': 'Themes',
  'themes.builtin': 'Built-in',
  'themes.enabled': 'In use',
  'themes.enable': 'Use',
  'themes.disable': 'Stop using',
  'themes.uninstall': 'Uninstall',
  'themes.builtinProtected': 'Built-in themes cannot be uninstalled.',
  'themes.byAuthor': '{version} · by {author}',
  'themes.importZip': 'Import theme (.zip)…',
  'themes.importFolder': 'Import theme folder…',
  'themes.checking': 'Checking the theme package…',
  'themes.previewTitle': 'Preview of {name}',
  'themes.previewFrame': 'Sample note in the {name} theme',
  'themes.previewImage': 'Preview image supplied by the theme',
  'themes.compatible': 'Works with this version of the app.',
  'themes.incompatible': 'Needs app version {version} or later.',
  'themes.warnings': 'Notes from the check',
  'themes.install': 'Install',
  'themes.cancel': 'Cancel',
  'themes.installed': 'Theme "{name}" installed',
  'themes.uninstalled': 'Theme "{name}" uninstalled',
  'themes.refused': 'This theme package was refused.',
  'themes.refusedAt': 'Line {line}: {found}',
  'themes.error.THEME_CSS_UNSAFE': 'Its stylesheet contains something a theme may not use.',
  'themes.error.THEME_RESOURCE_OUTSIDE_PACKAGE': 'It refers to a file outside the package.',
  'themes.error.THEME_MANIFEST_INVALID': 'Its theme.yaml is missing or not valid.',
  'themes.error.THEME_PACKAGE_INCOMPATIBLE': 'It needs a newer version of the app.',
  'themes.error.THEME_ALREADY_INSTALLED': 'A theme with the same id is already installed.',
  'themes.error.THEME_PACKAGE_NOT_FOUND': 'The picked package is no longer available; pick it again.',
  'themes.sampleNote': `# A sample note

Text with **bold**, *emphasis*, \`inline code\` and a [link](#sample).

> A quotation stands apart from the text.

## Code

\`\`\`ts
// Greets someone by name.
function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

## Table

| Term | Meaning | Size |
| --- | --- | ---: |
| CPU | processor | 1 |
| RAM | memory | 16 |

## Math

Inline $a^2 + b^2 = c^2$, and a block:

$$
\\int_0^1 x^2 \\, dx = \\frac{1}{3}
$$

## Diagram

\`\`\`mermaid
graph LR
  Idea --> Draft --> Note
\`\`\`
`,
} as const satisfies Record<string, Message>;

export type ThemeMessageKey = keyof typeof themeEn;

export const themeZhCN: Record<ThemeMessageKey, Message> = {
  'themes.title': '主题',
  'themes.builtin': '内置',
  'themes.enabled': '使用中',
  'themes.enable': '使用',
  'themes.disable': '停止使用',
  'themes.uninstall': '卸载',
  'themes.builtinProtected': '内置主题不能卸载。',
  'themes.byAuthor': '{version} · 作者 {author}',
  'themes.importZip': '导入主题（.zip）…',
  'themes.importFolder': '导入主题文件夹…',
  'themes.checking': '正在检查主题包…',
  'themes.previewTitle': '{name} 预览',
  'themes.previewFrame': '使用 {name} 主题的示例笔记',
  'themes.previewImage': '主题自带的预览图',
  'themes.compatible': '适用于当前版本的应用。',
  'themes.incompatible': '需要 {version} 或更高版本的应用。',
  'themes.warnings': '检查提示',
  'themes.install': '安装',
  'themes.cancel': '取消',
  'themes.installed': '已安装主题“{name}”',
  'themes.uninstalled': '已卸载主题“{name}”',
  'themes.refused': '此主题包被拒绝。',
  'themes.refusedAt': '第 {line} 行：{found}',
  'themes.error.THEME_CSS_UNSAFE': '样式表中含有主题不允许使用的内容。',
  'themes.error.THEME_RESOURCE_OUTSIDE_PACKAGE': '它引用了包外的文件。',
  'themes.error.THEME_MANIFEST_INVALID': 'theme.yaml 缺失或无效。',
  'themes.error.THEME_PACKAGE_INCOMPATIBLE': '它需要更新版本的应用。',
  'themes.error.THEME_ALREADY_INSTALLED': '已安装了相同 ID 的主题。',
  'themes.error.THEME_PACKAGE_NOT_FOUND': '所选的包已失效，请重新选择。',
  'themes.sampleNote': `# 示例笔记

含有**粗体**、*强调*、\`行内代码\`和[链接](#sample)的文字。

> 引用与正文分开显示。

## 代码

\`\`\`ts
// 按名字问候。
function greet(name: string): string {
  return \`你好，\${name}！\`;
}
\`\`\`

## 表格

| 术语 | 含义 | 数量 |
| --- | --- | ---: |
| CPU | 处理器 | 1 |
| RAM | 内存 | 16 |

## 数学

行内 $a^2 + b^2 = c^2$，以及公式块：

$$
\\int_0^1 x^2 \\, dx = \\frac{1}{3}
$$

## 图表

\`\`\`mermaid
graph LR
  想法 --> 草稿 --> 笔记
\`\`\`
`,
};

export const themeText = featureMessages<ThemeMessageKey>(themeEn, themeZhCN);
