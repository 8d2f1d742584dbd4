import { featureMessages } from '../i18n/feature-messages';
import type { Message } from '../i18n/translate';

/** The note menu's Export messages. */
export const exportEn = {
  'export.button': 'Export',
  'export.menuLabel': 'Export this note',
  'export.format.html': 'HTML (web page)',
  'export.format.pdf': 'PDF',
  'export.format.docx': 'Word (DOCX)',
  'export.running': 'Exporting {format}…',
  'export.cancel': 'Cancel export',
  'export.done': 'Exported {file}',
  'export.cancelled': 'Export cancelled',
  'export.warnings': 'Exported {file} with {count} warning(s): {first}',
} satisfies Record<string, Message>;

export const exportZhCN: Record<keyof typeof exportEn, Message> = {
  'export.button': '导出',
  'export.menuLabel': '导出此笔记',
  'export.format.html': 'HTML（网页）',
  'export.format.pdf': 'PDF',
  'export.format.docx': 'Word（DOCX）',
  'export.running': '正在导出 {format}…',
  'export.cancel': '取消导出',
  'export.done': '已导出 {file}',
  'export.cancelled': '已取消导出',
  'export.warnings': '已导出 {file}，有 {count} 条警告：{first}',
};

export const exportText = featureMessages(exportEn, exportZhCN);
