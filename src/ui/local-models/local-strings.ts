import { featureMessages } from '../i18n/feature-messages';
import type { Message } from '../i18n/translate';

/**
 * Messages of the local-model views (Settings → Local models, the chat's
 * model picker and download offer, the thinking toggle), kept apart until they
 * are merged into `i18n/en.ts` and `i18n/zh-cn.ts` (then `localText` becomes `t`).
 */
export const localEn = {
  'local.heading': 'Local models',
  'local.intro':
    'These models run in this browser on the GPU (WebGPU), offline once downloaded. Downloads go to the browser cache.',
  'local.noWebGpu': 'Local models are unavailable here: {reason}',
  'local.gpu': 'GPU: {adapter}',
  'local.download': 'Download',
  'local.cancel': 'Cancel',
  'local.delete': 'Delete',
  'local.downloaded': 'Downloaded · {size}',
  'local.needs': '{size} download · {memory} GPU memory',
  'local.downloading': 'Downloading…',
  'local.group': 'In-browser models',
  'local.groupUnavailable': 'In-browser models (unavailable)',
  'local.notDownloaded': 'not downloaded',
  'local.cannotRun': 'cannot run here',
  'local.offerTitle': '{name} is not downloaded yet',
  'local.offerBody': 'It needs a {size} download and about {memory} of GPU memory.',
  'local.useInstead': 'Use {name} instead',
  'local.sources': 'Model hosts (mirrors)',
  'local.sourcesHint':
    'Leave empty for Hugging Face and GitHub. A mirror with the same layout works, e.g. https://hf-mirror.com/.',
  'local.modelHost': 'Model host (weights)',
  'local.libHost': 'Model library host (wasm)',
  'local.saveSources': 'Save hosts',
  'local.sourcesSaved': 'Model hosts saved.',
  'local.downloadLabel': 'Download {name}',
  'local.deleted': '{name} deleted.',
  'local.ready': '{name} is downloaded.',
  'chat.thinking': 'Think',
  'chat.thinkingHint': 'Let a reasoning model think before it answers',
  'chat.effort': 'Effort',
  'chat.effort.low': 'Low',
  'chat.effort.medium': 'Medium',
  'chat.effort.high': 'High',
  'chat.effort.max': 'Max',
} as const satisfies Record<string, Message>;

export type LocalMessageKey = keyof typeof localEn;

export const localZhCN: Record<LocalMessageKey, Message> = {
  'local.heading': '本地模型',
  'local.intro':
    '这些模型在本浏览器中用 GPU（WebGPU）运行，下载一次后即可离线使用。下载内容保存在浏览器缓存中。',
  'local.noWebGpu': '此处无法使用本地模型：{reason}',
  'local.gpu': 'GPU：{adapter}',
  'local.download': '下载',
  'local.cancel': '取消',
  'local.delete': '删除',
  'local.downloaded': '已下载 · {size}',
  'local.needs': '下载 {size} · 显存约 {memory}',
  'local.downloading': '正在下载…',
  'local.group': '浏览器内模型',
  'local.groupUnavailable': '浏览器内模型（不可用）',
  'local.notDownloaded': '未下载',
  'local.cannotRun': '此设备无法运行',
  'local.offerTitle': '{name} 尚未下载',
  'local.offerBody': '需要下载 {size}，运行约需 {memory} 显存。',
  'local.useInstead': '改用 {name}',
  'local.sources': '模型下载源（镜像）',
  'local.sourcesHint':
    '留空则使用 Hugging Face 和 GitHub。也可填写目录结构相同的镜像，例如 https://hf-mirror.com/。',
  'local.modelHost': '模型权重下载源',
  'local.libHost': '模型库（wasm）下载源',
  'local.saveSources': '保存下载源',
  'local.sourcesSaved': '已保存模型下载源。',
  'local.downloadLabel': '下载 {name}',
  'local.deleted': '已删除 {name}。',
  'local.ready': '{name} 已下载。',
  'chat.thinking': '思考',
  'chat.thinkingHint': '让推理模型先思考再回答',
  'chat.effort': '思考强度',
  'chat.effort.low': '低',
  'chat.effort.medium': '中',
  'chat.effort.high': '高',
  'chat.effort.max': '最高',
};

/** `t` for these messages, in the current locale. */
export const localText = featureMessages(localEn, localZhCN);
