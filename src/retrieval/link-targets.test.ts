import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../core/blocks';
import type { IndexSource } from '../db';
import { FullTextIndex } from './full-text-index';
import { HashEmbedder } from './hash-embedder';
import { hybridSearch } from './hybrid-search';
import { documentsOf, noteSegmentOf, searchedText } from './index-documents';
import { withoutLinkTargets } from './link-targets';
import { DEFAULT_RETRIEVAL_PROFILE } from './retrieval-profile';
import { VectorIndex } from './vector-index';

describe('withoutLinkTargets', () => {
  it('keeps a link’s label and drops the linked note’s name and heading', () => {
    expect(withoutLinkTargets('Back to [[卷积 Convolution#Convolution]].')).toBe('Back to   .');
    expect(withoutLinkTargets('See [[LTI 系统|LTI systems]] and [[#Proof]].')).toBe(
      'See  LTI systems  and   .',
    );
  });

  it('leaves text without links, and links inside code, as written', () => {
    expect(withoutLinkTargets('No links here.')).toBe('No links here.');
    expect(withoutLinkTargets('`[[not a link]]`')).toBe('`[[not a link]]`');
  });
});

/**
 * The vault a teacher imported: the note about 卷积 names it in its title and
 * tags only (its text is English and a diagram), and another note links back
 * to it in passing.
 */
const VAULT = [
  {
    note_id: 'convolution',
    title: '卷积 Convolution',
    tags: ['signals', '卷积', 'exam'],
    aliases: ['Convolution'],
    body: [
      '# Convolution',
      'The convolution $y(t) = \\int_{-\\infty}^{\\infty} x(\\tau) h(t-\\tau)\\,d\\tau$.',
      'See [[傅里叶变换]] and [[LTI 系统|LTI systems]].',
      '```mermaid\ngraph LR\n  x[输入 x(t)] --> H[LTI h(t)] --> y[输出 y(t)]\n```',
      '```function-plot\ny = exp(-x) | label: 冲激响应 h(t)\ndomain: 0, 5\n```',
      '#exam',
    ].join('\n\n'),
  },
  {
    note_id: 'fourier',
    title: '傅里叶变换',
    tags: ['signals'],
    aliases: [],
    body: [
      '# 傅里叶变换',
      '$$X(j\\omega)=\\int_{-\\infty}^{\\infty}x(t)e^{-j\\omega t}dt$$',
      'Back to [[卷积 Convolution#Convolution]].',
    ].join('\n\n'),
  },
  {
    note_id: 'lti',
    title: 'LTI 系统',
    tags: [],
    aliases: [],
    body: '# LTI 系统\n\n线性时不变系统满足叠加性和时不变性。 See [[SignalsVault/基础/傅里叶变换]].',
  },
];

/** Block ids as the app makes them: unrelated to the blocks' order (here, reversed). */
function sourceOf(note: (typeof VAULT)[number]): IndexSource {
  const blocks = parseBlocks(note.body);
  return {
    note: {
      note_id: note.note_id,
      title: note.title,
      folder: 'SignalsVault/基础',
      tags: note.tags,
      version: 1,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      deleted_at: null,
      pinned: false,
    },
    blocks: blocks.map((block, position) => ({
      block_id: `${note.note_id}-${String.fromCharCode(122 - position)}`,
      note_id: note.note_id,
      type: block.type,
      position,
      text: block.text,
      start_line: position,
      end_line: position,
      hash: `hash-${position}`,
    })),
  };
}

describe('a question about a note that only its title, alias and tag name', () => {
  async function indexes() {
    const fullText = new FullTextIndex();
    const embedder = new HashEmbedder();
    const vectors = new VectorIndex(embedder.info, 1024);
    const texts = new Map<string, string>();
    for (const note of VAULT) {
      const documents = documentsOf(sourceOf(note), note.aliases);
      fullText.addSegments([noteSegmentOf(note.note_id, documents)]);
      for (const document of documents) texts.set(document.block_id, document.text);
      vectors.upsert(documents, await embedder.embed(documents.map(searchedText)), embedder.info);
    }
    return { fullText, embedder, vectors, texts };
  }

  for (const mode of ['fts', 'hybrid'] as const) {
    it(`ranks that note first with its opening paragraph, not a note linking to it (${mode})`, async () => {
      const { texts, ...rest } = await indexes();
      const result = await hybridSearch({
        query: '什么是卷积',
        mode,
        profile: DEFAULT_RETRIEVAL_PROFILE,
        ...rest,
        limit: 10,
      });
      const first = result.hits[0]!;
      expect(first.note_id).toBe('convolution');
      expect(texts.get(first.block_id)).toMatch(/^The convolution \$y\(t\)/);
      // The passing link is not a match for the linked note's name.
      expect(result.hits.map((hit) => texts.get(hit.block_id))).not.toContain(
        'Back to [[卷积 Convolution#Convolution]].',
      );
    });
  }

  it('still finds a block by the words of a link’s label', async () => {
    const { fullText } = await indexes();
    const hits = fullText.search('LTI systems', { limit: 10 });
    expect(hits.map((hit) => hit.note_id)).toContain('convolution');
  });
});
