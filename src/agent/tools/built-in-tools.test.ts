import { describe, expect, it } from 'vitest';
import type { MetonaToolCall } from '../../ir';
import { DEADLOCK_NOTE } from '../__fixtures__/agent-harness';
import { sequentialIds } from '../__fixtures__/scripted-adapter';
import { MemoryItemStore } from '../memory';
import { ToolRegistry, type ToolExecution } from '../tool-registry';
import { InMemoryNotes, InMemorySearch } from '../__fixtures__/in-memory-ports';
import { createBuiltInTools, parseChecklist, unifiedDiff } from './index';

const NOW = Date.parse('2026-08-31T10:30:00Z');

async function setup() {
  const notes = new InMemoryNotes({ newId: sequentialIds(), clock: () => NOW });
  const note = await notes.create(DEADLOCK_NOTE);
  const memory = new MemoryItemStore();
  const registry = new ToolRegistry().register(
    ...createBuiltInTools({ notes, search: new InMemorySearch(notes), memory, clock: () => NOW }),
  );
  let callCount = 0;
  const run = (name: string, args: Record<string, unknown>): Promise<ToolExecution> => {
    const call: MetonaToolCall = { id: `c${++callCount}`, name, args, iteration: 1, timestamp: NOW };
    return registry.execute(call, {
      signal: new AbortController().signal,
      runId: 'r',
      sessionId: 's',
      step: 1,
    });
  };
  return { notes, note, memory, registry, run };
}

describe('built-in tools', () => {
  it('registers the twelve tools, writes behind permissions', async () => {
    const { registry } = await setup();
    expect(registry.names().sort()).toEqual([
      'math.evaluate',
      'memory.save',
      'notes.create',
      'notes.list',
      'notes.organise',
      'notes.read',
      'notes.search',
      'notes.update',
      'rag.search',
      'tasks.create',
      'tasks.list',
      'time.now',
    ]);
    const writers = registry
      .definitions()
      .filter((tool) => tool.requiresPermission)
      .map((tool) => [tool.name, registry.get(tool.name)?.permission]);
    expect(writers).toEqual([
      ['notes.create', 'notes.write'],
      ['notes.update', 'notes.write'],
      ['notes.organise', 'notes.write'],
      ['tasks.create', 'notes.write'],
      ['memory.save', 'memory.write'],
    ]);
  });

  it('rag.search returns cited passages', async () => {
    const { run, note } = await setup();
    const outcome = await run('rag.search', { query: 'banker algorithm' });
    expect(outcome.status).toBe('ok');
    expect(outcome.citations[0]).toMatchObject({ note_id: note.note_id, title: DEADLOCK_NOTE.title });
    expect(outcome.citations[0]?.block_id).toBeTruthy();
    expect(outcome.result.summary).toMatch(/^1 passage\(s\):\n\[1\] Operating systems: deadlock/);
  });

  it('notes.search, notes.list and notes.read find and show a note with its block ids', async () => {
    const { run, note } = await setup();
    const found = await run('notes.search', { query: 'deadlock' });
    expect(found.result.summary).toContain(`note_id ${note.note_id}`);
    const listed = await run('notes.list', { folder: 'os' });
    expect(listed.result.result).toMatchObject({ total: 1 });
    const read = await run('notes.read', { note_id: note.note_id });
    expect(read.result.summary).toContain(
      `[block ${note.blocks[1]?.block_id}]\nA deadlock needs four conditions`,
    );
    expect(read.result.result).toMatchObject({ version: 1, truncated: false });
    const missing = await run('notes.read', { note_id: 'nope' });
    expect(missing).toMatchObject({ status: 'error', result: { error: 'No note has the id "nope".' } });
  });

  it('notes.update appends or replaces a block and returns a unified diff', async () => {
    const { run, note, notes } = await setup();
    const appended = await run('notes.update', {
      note_id: note.note_id,
      mode: 'append',
      text: '## Summary\n\nFour conditions.',
    });
    expect(appended.status).toBe('ok');
    const diff = (appended.result.result as { diff: string }).diff;
    expect(diff).toBe(
      [
        '--- a/Operating systems: deadlock.md',
        '+++ b/Operating systems: deadlock.md',
        '@@ -3,3 +3,7 @@',
        ' A deadlock needs four conditions: mutual exclusion, hold and wait, no preemption and circular wait.',
        ' ',
        " The banker's algorithm avoids deadlock by only granting requests that keep the system in a safe state.",
        '+',
        '+## Summary',
        '+',
        '+Four conditions.',
        '',
      ].join('\n'),
    );
    expect(appended.result.summary).toMatch(/now version 2[\s\S]*```diff/);

    const current = await notes.read(note.note_id);
    const paragraph = current?.blocks.find((block) => block.text.startsWith('A deadlock'));
    const replaced = await run('notes.update', {
      note_id: note.note_id,
      mode: 'replace',
      block_id: paragraph?.block_id,
      text: 'A deadlock needs four Coffman conditions: mutual exclusion, hold and wait, no preemption and circular wait.',
      expected_version: 2,
    });
    expect(replaced.status).toBe('ok');
    expect((replaced.result.result as { diff: string }).diff).toContain(
      '-A deadlock needs four conditions: mutual exclusion, hold and wait, no preemption and circular wait.\n+A deadlock needs four Coffman conditions:',
    );
    const after = await notes.read(note.note_id);
    expect(after?.version).toBe(3);
    // The edited block keeps its id (core deriveBlocks matches it by similarity).
    expect(after?.blocks.find((block) => block.text.includes('Coffman'))?.block_id).toBe(paragraph?.block_id);

    const stale = await run('notes.update', {
      note_id: note.note_id,
      mode: 'append',
      text: 'x',
      expected_version: 1,
    });
    expect(stale.result.error).toMatch(/version 3, not 1/);
    const noBlock = await run('notes.update', { note_id: note.note_id, mode: 'replace', text: 'x' });
    expect(noBlock.status).toBe('invalid_arguments');
  });

  it('notes.create creates a note', async () => {
    const { run, notes } = await setup();
    const created = await run('notes.create', { title: 'Plan', body: 'Hello' });
    expect(created.result.result).toMatchObject({ title: 'Plan', version: 1 });
    expect((created.result.result as { diff: string }).diff).toContain('+Hello');
    expect((await notes.list({ limit: 10, offset: 0 })).total).toBe(2);
  });

  it('notes.create asks with the folder the note goes to', async () => {
    const { registry } = await setup();
    const spec = registry.get('notes.create')!.spec;
    const preview = (args: Record<string, unknown>) =>
      spec.preview!(spec.parameters.parse(args) as never, { signal: new AbortController().signal });
    const inFolder = await preview({ title: 'Alpha summary', body: 'Hi', folder: 'Projects/Alpha' });
    expect(inFolder.summary).toBe('Create the note “Alpha summary” in the folder “Projects/Alpha”.');
    expect(inFolder.diff).toContain('+++ b/Projects/Alpha/Alpha summary');
    expect(inFolder.action).toEqual({
      kind: 'note_create',
      title: 'Alpha summary',
      folder: 'Projects/Alpha',
    });
    expect((await preview({ title: 'Top', body: 'Hi' })).summary).toBe('Create the note “Top”.');
  });

  it('tasks.create adds a checklist to a note or a new note; tasks.list reads them back', async () => {
    const { run, note, notes } = await setup();
    const added = await run('tasks.create', {
      note_id: note.note_id,
      heading: 'Review',
      tasks: ['Conditions', '- [ ] Banker\nalgorithm', 'Prevention'],
    });
    expect(added.result.result).toMatchObject({
      created_note: false,
      tasks: [
        { text: 'Conditions', line: 8 },
        { text: 'Banker algorithm', line: 9 },
        { text: 'Prevention', line: 10 },
      ],
    });
    const body = (await notes.read(note.note_id))?.body ?? '';
    expect(body.split('\n').slice(6, 11)).toEqual([
      '## Review',
      '',
      '- [ ] Conditions',
      '- [ ] Banker algorithm',
      '- [ ] Prevention',
    ]);
    expect(parseChecklist(body).map((task) => task.line)).toEqual([8, 9, 10]);

    const fresh = await run('tasks.create', { tasks: ['Milk'], note_title: 'Groceries' });
    expect(fresh.result.result).toMatchObject({
      created_note: true,
      title: 'Groceries',
      tasks: [{ text: 'Milk', line: 0 }],
    });

    const open = await run('tasks.list', {});
    expect((open.result.result as { total: number }).total).toBe(4);
    const one = await run('tasks.list', { note_id: note.note_id, status: 'done' });
    expect(one.result.summary).toBe('No done tasks found.');
  });

  it('checklists inside code blocks are not tasks', () => {
    const body = ['- [ ] real', '- [x] done', '', '```', '- [ ] not a task', '```', ''].join('\n');
    expect(parseChecklist(body)).toEqual([
      { text: 'real', done: false, line: 0 },
      { text: 'done', done: true, line: 1 },
    ]);
  });

  it('memory.save stores an item with importance and expiry', async () => {
    const { run, memory } = await setup();
    const saved = await run('memory.save', { content: 'Exam on Friday', importance: 0.8, ttl_days: 7 });
    expect(saved.result.result).toMatchObject({
      type: 'semantic',
      importance: 0.8,
      expires_at: '2026-09-07T10:30:00.000Z',
    });
    expect(await memory.list()).toEqual([
      expect.objectContaining({
        content: 'Exam on Friday',
        source: 'agent_thought',
        sessionId: 's',
        createdAt: NOW,
        expiresAt: NOW + 7 * 24 * 60 * 60 * 1000,
      }),
    ]);
  });

  it('math.evaluate computes and refuses code', async () => {
    const { run } = await setup();
    const ok = await run('math.evaluate', { expression: 'round(sqrt(2) * 100, 2)' });
    expect(ok.result).toMatchObject({
      success: true,
      result: { value: 141.42 },
      summary: 'round(sqrt(2) * 100, 2) = 141.42',
    });
    for (const expression of ['constructor', 'alert(1)', 'this.constructor', '1/0', 'process']) {
      const refused = await run('math.evaluate', { expression });
      expect(refused.status).toBe('error');
    }
  });

  it('time.now answers in a time zone and rejects unknown ones', async () => {
    const { run } = await setup();
    const shanghai = await run('time.now', { timezone: 'Asia/Shanghai' });
    expect(shanghai.result.result).toMatchObject({
      iso: '2026-08-31T10:30:00.000Z',
      local: '2026-08-31 18:30:00',
      timezone: 'Asia/Shanghai',
      weekday: 'Monday',
    });
    expect((await run('time.now', { timezone: 'Mars/Olympus' })).result.error).toMatch(/Unknown time zone/);
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts and shows additions from nothing', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
    expect(unifiedDiff('', 'x\n', 'n.md')).toBe('--- a/n.md\n+++ b/n.md\n@@ -0,0 +1,1 @@\n+x\n');
  });

  it('keeps three lines of context and splits distant changes into hunks', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 2', 'LINE 2').replace('line 17', 'LINE 17');
    const diff = unifiedDiff(before, after);
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,6 +1,6 @@');
    expect(diff).toContain('-line 17\n+LINE 17');
  });
});
