import { featureMessages } from '../i18n/feature-messages';
import type { Message } from '../i18n/translate';

/**
 * The embedding-model and reranker pickers' messages, kept apart until they are merged into
 * `i18n/en.ts` and `i18n/zh-cn.ts` (then `embeddingText` becomes `t`).
 */
export const embeddingEn = {
  'embedding.heading': 'Embedding model',
  'embedding.modelLabel': 'Model for vector search',
  'embedding.builtin': '{label}',
  'embedding.option': '{label} · {dimension} dimensions · about {size} MB',
  'embedding.use': 'Use this model',
  'embedding.inUse': 'In use',
  'embedding.hint':
    'Models are downloaded once and kept in the browser. Vector search uses a new model after its vectors are rebuilt; until then it falls back to full-text search.',
  'embedding.hostLabel': 'Model host',
  'embedding.hostPlaceholder': 'Default: {host}',
  'embedding.hostSave': 'Save host',
  'embedding.hostSaved': 'Model host saved; it applies to the next download.',
  'embedding.downloadLabel': 'Download {model}',
  'embedding.ready': 'Embedding model {model} is ready. Rebuild the vectors to use it.',
  'embedding.cancelled': 'Model download cancelled; the previous model is still in use.',
  'embedding.failed': 'Model download failed: {reason}',
  'embedding.switched': 'Now using {model}. Rebuild the vectors to use it for vector search.',
  'reranker.heading': 'Reranker',
  'reranker.modelLabel': 'Cross-encoder that reorders search results',
  'reranker.off': 'Off (no reranking)',
  'reranker.option': '{label} · about {size} MB',
  'reranker.use': 'Apply',
  'reranker.inUse': 'In use',
  'reranker.hint':
    'A reranker reads the query together with each top result and reorders them, for search and for "ask your notes": a better order, a slower search. It is downloaded once from the model host above and kept in the browser.',
  'reranker.downloadLabel': 'Download reranker {model}',
  'reranker.ready': 'Reranker {model} is ready: search results are now reranked.',
  'reranker.turnedOff': 'Reranking is off.',
  'reranker.cancelled': 'Reranker download cancelled; reranking is unchanged.',
  'reranker.failed': 'Reranker download failed: {reason}',
  'reranker.marker': 'reranked by {model}',
  'reranker.failedQuery': 'not reranked: the reranker could not run (see Settings → Search index)',
} as const satisfies Record<string, Message>;

export type EmbeddingMessageKey = keyof typeof embeddingEn;

export const embeddingZhCN: Record<EmbeddingMessageKey, Message> = {
  'embedding.heading': '向量模型',
  'embedding.modelLabel': '向量搜索使用的模型',
  'embedding.builtin': '{label}',
  'embedding.option': '{label} · {dimension} 维 · 约 {size} MB',
  'embedding.use': '使用此模型',
  'embedding.inUse': '使用中',
  'embedding.hint':
    '模型只下载一次并保存在浏览器中。重建向量之后向量搜索才会使用新模型，在此之前会降级为全文搜索。',
  'embedding.hostLabel': '模型下载地址',
  'embedding.hostPlaceholder': '默认：{host}',
  'embedding.hostSave': '保存地址',
  'embedding.hostSaved': '模型地址已保存，将用于下一次下载。',
  'embedding.downloadLabel': '下载 {model}',
  'embedding.ready': '向量模型 {model} 已就绪。重建向量后即可使用。',
  'embedding.cancelled': '模型下载已取消，仍在使用之前的模型。',
  'embedding.failed': '模型下载失败：{reason}',
  'embedding.switched': '已切换到 {model}。重建向量后向量搜索才会使用它。',
  'reranker.heading': '重排序模型',
  'reranker.modelLabel': '对搜索结果重新排序的交叉编码器',
  'reranker.off': '关闭（不重排序）',
  'reranker.option': '{label} · 约 {size} MB',
  'reranker.use': '应用',
  'reranker.inUse': '使用中',
  'reranker.hint':
    '重排序模型把查询与每条靠前的结果一起阅读并重新排序，用于搜索和“询问笔记”：排序更准，搜索稍慢。它只从上方的模型地址下载一次并保存在浏览器中。',
  'reranker.downloadLabel': '下载重排序模型 {model}',
  'reranker.ready': '重排序模型 {model} 已就绪：搜索结果现在会重新排序。',
  'reranker.turnedOff': '已关闭重排序。',
  'reranker.cancelled': '重排序模型下载已取消，重排序设置未改变。',
  'reranker.failed': '重排序模型下载失败：{reason}',
  'reranker.marker': '已由 {model} 重排序',
  'reranker.failedQuery': '未重排序：重排序模型无法运行（见 设置 → 搜索索引）',
};

export const embeddingText = featureMessages(embeddingEn, embeddingZhCN);
