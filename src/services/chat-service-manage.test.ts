import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CHAT_IMAGE_BYTES } from '../contracts';
import { answerNoteBody } from './chat-service';
import { sniffImageType } from './image-store';
import { testCore } from './test-core';

const instant = async (_ms: number, signal?: AbortSignal) => signal?.throwIfAborted();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

function sse(text: string): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${chunk({ role: 'assistant', content: text }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

interface WireMessage {
  role: string;
  content: string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
}

/**
 * An OpenAI-compatible host: `gpt-4o` (vision, from the catalog) and
 * `plain-model` (nothing known: text only). Answers every completion with
 * `answer`, or 500 while `failing` is set; records each completion body.
 */
function openAiHost() {
  const host = {
    completions: [] as Array<{ messages: WireMessage[] }>,
    failing: false,
    answer: 'Answer from the host.',
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      if (url.pathname.endsWith('/models')) {
        return Response.json({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'plain-model' }] });
      }
      host.completions.push(JSON.parse(String(init?.body)) as { messages: WireMessage[] });
      if (host.failing) return Response.json({ error: { message: 'boom' } }, { status: 500 });
      return new Response(sse(host.answer), { headers: { 'Content-Type': 'text/event-stream' } });
    }) as typeof globalThis.fetch,
  };
  return host;
}

describe('ChatService: managing conversations', () => {
  let core: ReturnType<typeof testCore>;
  afterEach(async () => {
    await core?.api.chat.idle();
    await core?.close();
  });

  async function withHost() {
    const host = openAiHost();
    core = testCore({ providers: { fetch: host.fetch, router: { sleep: instant, maxRetries: 0 } } });
    await core.api.providers.create({
      preset: 'openai',
      base_url: 'https://host.test/v1',
      default_model: 'gpt-4o',
    });
    return host;
  }

  async function answered(content: string, conversationId?: string, extra: Record<string, unknown> = {}) {
    const turn = await core.api.chat.send({
      content,
      ...(conversationId && { conversation_id: conversationId }),
      ...extra,
    });
    const message = await core.api.chat.settled(turn.turn_id);
    return { turn, message };
  }

  describe('rename and system prompt', () => {
    it('renames, and sends the conversation’s system prompt with every later answer', async () => {
      const host = await withHost();
      const { turn } = await answered('First question', undefined, { provider_id: 'openai' });
      const id = turn.conversation_id;
      const renamed = await core.api.chat.updateConversation(id, { title: '  Trip planning ' });
      expect(renamed.title).toBe('Trip planning');
      await core.api.chat.updateConversation(id, { system_prompt: 'Always answer in French.' });
      expect((await core.api.chat.getConversation(id)).system_prompt).toBe('Always answer in French.');
      expect((await core.api.chat.listConversations()).items[0]?.title).toBe('Trip planning');

      await answered('Second question', id);
      const system = host.completions.at(-1)!.messages[0]!;
      expect(system.role).toBe('system');
      expect(system.content).toContain('Always answer in French.');
      expect(host.completions[0]!.messages[0]!.content).not.toContain('French');

      await core.api.chat.updateConversation(id, { system_prompt: '' });
      expect((await core.api.chat.getConversation(id)).system_prompt).toBeUndefined();
      expect((await core.api.chat.getConversation(id)).title).toBe('Trip planning');
      await answered('Third question', id);
      expect(host.completions.at(-1)!.messages[0]!.content).not.toContain('French');
    });

    it('refuses empty or unknown changes and missing or trashed conversations', async () => {
      core = testCore();
      const { turn } = await answered('Hello');
      const id = turn.conversation_id;
      await expect(core.api.chat.updateConversation(id, { title: '   ' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(core.api.chat.updateConversation(id, {})).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(
        core.api.chat.updateConversation(id, { colour: 'red' } as unknown as { title: string }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(core.api.chat.updateConversation('nope', { title: 'x' })).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      await core.api.chat.deleteConversation(id);
      await expect(core.api.chat.updateConversation(id, { title: 'x' })).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      expect((await core.db.conversations.get(id))?.title).toBe('Hello');
    });
  });

  describe('search', () => {
    it('finds conversations by title or by any message, case-insensitively, with a true total', async () => {
      core = testCore();
      const kafka = await answered('Kafka partitions explained');
      const other = await answered('Something else');
      await answered('Baking bread');
      await answered('Tell me about KAFKA consumers', other.turn.conversation_id);

      const found = await core.api.chat.listConversations({ query: 'kafka' });
      expect(found.items.map((item) => item.conversation_id).sort()).toEqual(
        [kafka.turn.conversation_id, other.turn.conversation_id].sort(),
      );
      expect(found.page.total).toBe(2);
      const paged = await core.api.chat.listConversations({ query: 'kafka', limit: 1, offset: 1 });
      expect(paged.items).toHaveLength(1);
      expect(paged.page.total).toBe(2);
      expect((await core.api.chat.listConversations({ query: 'nothing like it' })).items).toEqual([]);
      expect((await core.api.chat.listConversations({ query: '' })).page.total).toBe(3);

      await core.api.chat.deleteConversation(kafka.turn.conversation_id);
      expect((await core.api.chat.listConversations({ query: 'kafka' })).page.total).toBe(1);
    });

    it('rejects a query that is too long', async () => {
      core = testCore();
      await expect(core.api.chat.listConversations({ query: 'x'.repeat(201) })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    });
  });

  describe('delete with undo', () => {
    it('moves a conversation to the trash and restores it whole', async () => {
      core = testCore();
      const { turn } = await answered('Keep me');
      const id = turn.conversation_id;
      await core.api.chat.deleteConversation(id);
      expect((await core.api.chat.listConversations()).items).toEqual([]);
      await expect(core.api.chat.getConversation(id)).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      await expect(core.api.chat.send({ conversation_id: id, content: 'x' })).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      await expect(core.api.chat.deleteConversation(id)).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });

      const restored = await core.api.chat.restoreConversation(id);
      expect(restored.deleted_at).toBeUndefined();
      const detail = await core.api.chat.getConversation(id);
      expect(detail.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect((await core.api.chat.listConversations()).items.map((item) => item.conversation_id)).toEqual([
        id,
      ]);
    });

    it('refuses to restore what is not in the trash or does not exist', async () => {
      core = testCore();
      const { turn } = await answered('Here');
      await expect(core.api.chat.restoreConversation(turn.conversation_id)).rejects.toMatchObject({
        code: 'STATE_CONFLICT',
      });
      await expect(core.api.chat.restoreConversation('nope')).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      await expect(core.api.chat.restoreConversation('')).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    });

    it('empties the trash on the next start: messages go, the restore is refused', async () => {
      core = testCore();
      const gone = await answered('Gone soon');
      const kept = await answered('Stays');
      await core.api.chat.deleteConversation(gone.turn.conversation_id);
      await core.api.chat.recover();
      expect(await core.db.messages.where('conversation_id').equals(gone.turn.conversation_id).count()).toBe(
        0,
      );
      await expect(core.api.chat.restoreConversation(gone.turn.conversation_id)).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      expect((await core.api.chat.getConversation(kept.turn.conversation_id)).messages).toHaveLength(2);
    });
  });

  describe('edit and resend', () => {
    it('replaces the question, drops every later turn and answers again', async () => {
      const host = await withHost();
      const first = await answered('What is 2+2?', undefined, { provider_id: 'openai' });
      const id = first.turn.conversation_id;
      await answered('And 3+3?', id);
      const question = first.turn.user_message!;

      host.answer = 'Five, in this edit.';
      const turn = await core.api.chat.resend({
        conversation_id: id,
        message_id: question.message_id,
        content: 'What is 2+3?',
      });
      expect(turn.user_message).toMatchObject({ content: 'What is 2+3?', position: 0 });
      const message = await core.api.chat.settled(turn.turn_id);
      expect(message).toMatchObject({ status: 'completed', content: 'Five, in this edit.', position: 1 });

      const detail = await core.api.chat.getConversation(id);
      expect(detail.messages.map((row) => [row.role, row.content])).toEqual([
        ['user', 'What is 2+3?'],
        ['assistant', 'Five, in this edit.'],
      ]);
      const sent = host.completions.at(-1)!.messages.filter((row) => row.role !== 'system');
      expect(sent.map((row) => row.content)).toEqual(['What is 2+3?']);
    });

    it('refuses bad input, unknown questions, answers and other conversations’ messages', async () => {
      core = testCore();
      const a = await answered('A question');
      const b = await answered('B question');
      const id = a.turn.conversation_id;
      const base = { conversation_id: id, message_id: a.turn.user_message!.message_id };
      await expect(core.api.chat.resend({ ...base, content: '  ' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(
        core.api.chat.resend({ ...base, conversation_id: 'nope', content: 'x' }),
      ).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      await expect(core.api.chat.resend({ ...base, message_id: 'nope', content: 'x' })).rejects.toMatchObject(
        {
          code: 'RESOURCE_NOT_FOUND',
        },
      );
      await expect(
        core.api.chat.resend({ ...base, message_id: a.turn.turn_id, content: 'x' }),
      ).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      await expect(
        core.api.chat.resend({ ...base, message_id: b.turn.user_message!.message_id, content: 'x' }),
      ).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      expect((await core.api.chat.getConversation(id)).messages.map((row) => row.content)[0]).toBe(
        'A question',
      );
    });

    it('refuses while an answer streams, and a stopped resend keeps the edited question', async () => {
      core = testCore();
      const first = await answered('Original');
      const id = first.turn.conversation_id;
      const running = await core.api.chat.send({ conversation_id: id, content: '/scenario long' });
      const input = {
        conversation_id: id,
        message_id: first.turn.user_message!.message_id,
        content: 'Edited',
      };
      await expect(core.api.chat.resend(input)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
      await core.api.chat.cancel(running.turn_id);
      await core.api.chat.settled(running.turn_id);
      expect((await core.api.chat.getConversation(id)).messages).toHaveLength(4);

      const edited = await core.api.chat.resend({ ...input, content: '/scenario long' });
      await core.api.chat.cancel(edited.turn_id);
      expect((await core.api.chat.settled(edited.turn_id)).status).toBe('cancelled');
      const rows = (await core.api.chat.getConversation(id)).messages;
      expect(rows.map((row) => [row.content === '/scenario long' ? 'edited' : row.role, row.status])).toEqual(
        [
          ['edited', 'completed'],
          ['assistant', 'cancelled'],
        ],
      );
    });

    it('a provider failure ends the new answer as failed; the edit stays', async () => {
      const host = await withHost();
      const first = await answered('Question', undefined, { provider_id: 'openai' });
      host.failing = true;
      const turn = await core.api.chat.resend({
        conversation_id: first.turn.conversation_id,
        message_id: first.turn.user_message!.message_id,
        content: 'Better question',
      });
      const message = await core.api.chat.settled(turn.turn_id);
      expect(message.status).toBe('failed');
      expect(message.error?.code).toBe('PROVIDER_UNAVAILABLE');
      const rows = (await core.api.chat.getConversation(first.turn.conversation_id)).messages;
      expect(rows.map((row) => row.content)[0]).toBe('Better question');
      expect(rows).toHaveLength(2);
    });
  });

  describe('regenerate', () => {
    it('replaces a completed last answer (retry still refuses it)', async () => {
      const host = await withHost();
      const first = await answered('Name a colour', undefined, { provider_id: 'openai' });
      const id = first.turn.conversation_id;
      await expect(core.api.chat.retry(id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
      host.answer = 'Blue, this time.';
      const turn = await core.api.chat.regenerate(id);
      expect(turn.user_message).toBeNull();
      expect((await core.api.chat.settled(turn.turn_id)).content).toBe('Blue, this time.');
      const rows = (await core.api.chat.getConversation(id)).messages;
      expect(rows.map((row) => row.content)).toEqual(['Name a colour', 'Blue, this time.']);
      expect(rows.find((row) => row.message_id === first.turn.turn_id)).toBeUndefined();
    });

    it('refuses while streaming, for missing conversations, and can be stopped', async () => {
      core = testCore();
      const running = await core.api.chat.send({ content: '/scenario long' });
      const id = running.conversation_id;
      await expect(core.api.chat.regenerate(id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
      await core.api.chat.cancel(running.turn_id);
      await core.api.chat.settled(running.turn_id);
      await expect(core.api.chat.regenerate('nope')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      await expect(core.api.chat.regenerate('')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      const again = await core.api.chat.regenerate(id);
      await core.api.chat.cancel(again.turn_id);
      expect((await core.api.chat.settled(again.turn_id)).status).toBe('cancelled');
      expect((await core.api.chat.getConversation(id)).messages).toHaveLength(2);
    });
  });

  describe('save answer as note', () => {
    it('creates a note with the answer and its sources as links', async () => {
      core = testCore({ providers: { sleep: instant } });
      await core.api.notes.create({ title: 'Kernel notes', body: 'The zephyrine scheduler picks tasks.' });
      const { message } = await answered('zephyrine scheduler', undefined, { use_notes: true });
      expect(message.citations?.length).toBeGreaterThan(0);
      const note = await core.api.chat.saveAnswerAsNote(message.message_id);
      expect(note.title).toBe('zephyrine scheduler');
      expect(note.body.startsWith(message.content)).toBe(true);
      expect(note.body).toContain('## Sources');
      expect(note.body).toContain('- [1] [[Kernel notes]]');
      expect((await core.api.notes.get(note.note_id)).body).toBe(note.body);
    });

    it('writes plain answers as they are, and escapes link-breaking titles', () => {
      expect(answerNoteBody('Just text.', [])).toBe('Just text.');
      const body = answerNoteBody('See [1].', [
        { index: 1, note_id: 'n1', block_id: 'b', title: 'A [draft] | x', snippet: 'snip', start_line: 0 },
        { index: 2, note_id: 'n2', block_id: 'b', title: '', snippet: '', start_line: 0 },
      ]);
      expect(body).toContain('## Sources\n\n- [1] [[A  draft    x]] — snip\n');
      // Cited: only [1]; [2] was read but not cited.
      expect(body).not.toContain('n2');
    });

    it('lists every source when none is cited, keeps the cited numbers, and heads a Chinese answer in Chinese', () => {
      const sources = [1, 2, 3].map((index) => ({
        index,
        note_id: `n${index}`,
        block_id: 'b',
        title: `T${index}`,
        snippet: '',
        start_line: 0,
      }));
      expect(answerNoteBody('No markers.', sources)).toContain('- [1] [[T1]]\n- [2] [[T2]]\n- [3] [[T3]]\n');
      const zh = answerNoteBody('节日在三月[1][3]，`arr[2]` 不算。', sources);
      expect(zh).toContain('## 来源\n\n- [1] [[T1]]\n- [3] [[T3]]\n');
      expect(zh).not.toContain('[[T2]]');
    });

    it('refuses unknown turns, questions, and answers that did not finish', async () => {
      core = testCore();
      const { turn } = await answered('Hello');
      await expect(core.api.chat.saveAnswerAsNote('nope')).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      await expect(core.api.chat.saveAnswerAsNote(turn.user_message!.message_id)).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
      await expect(core.api.chat.saveAnswerAsNote('')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      const running = await core.api.chat.send({
        conversation_id: turn.conversation_id,
        content: '/scenario long',
      });
      await expect(core.api.chat.saveAnswerAsNote(running.turn_id)).rejects.toMatchObject({
        code: 'STATE_CONFLICT',
      });
      await core.api.chat.cancel(running.turn_id);
      await core.api.chat.settled(running.turn_id);
      await expect(core.api.chat.saveAnswerAsNote(running.turn_id)).rejects.toMatchObject({
        code: 'STATE_CONFLICT',
      });
      expect((await core.api.notes.list()).items).toHaveLength(0);
    });
  });

  describe('images', () => {
    it('sniffs the image formats providers accept', () => {
      expect(sniffImageType(PNG)).toBe('image/png');
      expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
      expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBe('image/gif');
      expect(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
      expect(
        sniffImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')),
      ).toBeNull();
    });

    it('stores an image once, whatever type the browser claimed', async () => {
      core = testCore();
      const first = await core.api.chat.attachImage({ name: 'shot.png', mime_type: 'text/plain', data: PNG });
      expect(first).toMatchObject({ name: 'shot.png', mime_type: 'image/png', size: PNG.length });
      const again = await core.api.chat.attachImage({ name: 'copy.png', data: new Blob([PNG]) });
      expect(again.attachment_id).toBe(first.attachment_id);
      expect((await core.api.chat.imageBlob(first.attachment_id)).type).toBe('image/png');
    });

    it('refuses what is not an image, empty files, oversized ones and missing names', async () => {
      core = testCore();
      const text = new TextEncoder().encode('not an image');
      await expect(core.api.chat.attachImage({ name: 'a.png', data: text })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(
        core.api.chat.attachImage({ name: 'a.png', data: new Uint8Array() }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(core.api.chat.attachImage({ name: ' ', data: PNG })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      const huge = new Uint8Array(MAX_CHAT_IMAGE_BYTES + 1);
      huge.set(PNG);
      await expect(core.api.chat.attachImage({ name: 'big.png', data: huge })).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
      });
      expect(await core.db.attachments.count()).toBe(0);
      await expect(core.api.chat.imageBlob('nope')).rejects.toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });
    });

    it('sends an image as an OpenAI image part to a vision model and keeps it on the message', async () => {
      const host = await withHost();
      const image = await core.api.chat.attachImage({ name: 'shot.png', data: PNG });
      const { turn, message } = await answered('What is in this picture?', undefined, {
        provider_id: 'openai',
        model: 'gpt-4o',
        image_ids: [image.attachment_id],
      });
      expect(message.status).toBe('completed');
      expect(turn.user_message?.images).toEqual([
        { attachment_id: image.attachment_id, name: 'shot.png', mime_type: 'image/png' },
      ]);
      const user = host.completions[0]!.messages.at(-1)!;
      expect(user.content).toEqual([
        { type: 'text', text: 'What is in this picture?' },
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` },
        },
      ]);
    });

    it('a text-only model refuses before any request, stores nothing; its later turns carry no images', async () => {
      const host = await withHost();
      const image = await core.api.chat.attachImage({ name: 'shot.png', data: PNG });
      await expect(
        core.api.chat.send({
          content: 'Describe it',
          provider_id: 'openai',
          model: 'plain-model',
          image_ids: [image.attachment_id],
        }),
      ).rejects.toMatchObject({ code: 'MODEL_CAPABILITY_MISMATCH', details: { model: 'plain-model' } });
      expect(host.completions).toHaveLength(0);
      expect(await core.db.messages.count()).toBe(0);

      const seen = await answered('Look', undefined, {
        provider_id: 'openai',
        model: 'gpt-4o',
        image_ids: [image.attachment_id],
      });
      await answered('Now in words only', seen.turn.conversation_id, {
        provider_id: 'openai',
        model: 'plain-model',
      });
      const last = host.completions.at(-1)!.messages;
      expect(last.every((row) => typeof row.content === 'string')).toBe(true);
    });

    it('refuses unknown images and more than four', async () => {
      core = testCore();
      await expect(core.api.chat.send({ content: 'x', image_ids: ['nope'] })).rejects.toMatchObject({
        code: 'ATTACHMENT_NOT_FOUND',
      });
      await expect(
        core.api.chat.send({ content: 'x', image_ids: ['a', 'b', 'c', 'd', 'e'] }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await core.db.conversations.count()).toBe(0);
    });

    it('edit-and-resend keeps the question’s images', async () => {
      const host = await withHost();
      const image = await core.api.chat.attachImage({ name: 'shot.png', data: PNG });
      const first = await answered('What is it?', undefined, {
        provider_id: 'openai',
        model: 'gpt-4o',
        image_ids: [image.attachment_id],
      });
      const turn = await core.api.chat.resend({
        conversation_id: first.turn.conversation_id,
        message_id: first.turn.user_message!.message_id,
        content: 'What colour is it?',
      });
      await core.api.chat.settled(turn.turn_id);
      expect(turn.user_message?.images?.[0]?.attachment_id).toBe(image.attachment_id);
      const content = host.completions.at(-1)!.messages.at(-1)!.content as Array<{ type: string }>;
      expect(content.map((part) => part.type)).toEqual(['text', 'image_url']);
    });
  });
});
