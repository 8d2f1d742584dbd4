import { describe, expect, it } from 'vitest';
import { headingSections, parseProposedQuestions, questionsPrompt } from './heading-questions';

const block = (block_id: string, type: string, text: string) => ({ block_id, note_id: 'n1', type, text });

const BLOCKS = [
  block('b0', 'paragraph', 'Intro before any heading.'),
  block('b1', 'heading', '## Deadlock'),
  block('b2', 'paragraph', 'Four conditions must hold.'),
  block('b3', 'list', '- mutual exclusion\n- circular wait'),
  block('b4', 'heading', '## Empty'),
  block('b5', 'heading', '# 页表'),
  block('b6', 'paragraph', 'TLB 缓存页表项。'),
];

describe('heading sections', () => {
  it('pairs each heading that has content with its first block and its text', () => {
    expect(headingSections('OS', BLOCKS)).toEqual([
      {
        note_id: 'n1',
        note_title: 'OS',
        heading: 'Deadlock',
        block_id: 'b2',
        text: 'Four conditions must hold.\n\n- mutual exclusion\n- circular wait',
      },
      { note_id: 'n1', note_title: 'OS', heading: '页表', block_id: 'b6', text: 'TLB 缓存页表项。' },
    ]);
    expect(headingSections('none', [block('x', 'paragraph', 'no headings')])).toEqual([]);
  });

  it('numbers the sections in the prompt', () => {
    const prompt = questionsPrompt(headingSections('OS', BLOCKS));
    expect(prompt).toContain('[1] OS > Deadlock\nFour conditions must hold.');
    expect(prompt).toContain('[2] OS > 页表\nTLB 缓存页表项。');
  });
});

describe('parseProposedQuestions', () => {
  const sections = headingSections('OS', BLOCKS);

  it('maps numbered questions to their sections, in order, dropping repeats, empties and strangers', () => {
    const answer = JSON.stringify({
      questions: [
        { section: 2, question: ' 什么缓存页表项? ' },
        { section: 1, question: 'What must hold for a deadlock?' },
        { section: 1, question: 'A second one for the same section' },
        { section: 3, question: 'No such section' },
        { section: 0, question: 'Nor this' },
        { section: 2, question: '' },
      ],
    });
    expect(parseProposedQuestions(answer, sections)).toEqual([
      {
        note_id: 'n1',
        note_title: 'OS',
        heading: 'Deadlock',
        block_id: 'b2',
        query: 'What must hold for a deadlock?',
      },
      { note_id: 'n1', note_title: 'OS', heading: '页表', block_id: 'b6', query: '什么缓存页表项?' },
    ]);
  });

  it('reads JSON in a code fence, and answers null for anything that is not the asked JSON', () => {
    const fenced = '```json\n{"questions":[{"section":1,"question":"Why?"}]}\n```';
    expect(parseProposedQuestions(fenced, sections)?.map((entry) => entry.query)).toEqual(['Why?']);
    for (const content of ['Sure! Here are questions.', '{"questions": "none"}', '[]', '']) {
      expect(parseProposedQuestions(content, sections)).toBeNull();
    }
  });
});
