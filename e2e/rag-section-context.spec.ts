import { createNote, expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askNotes, openChat } from './harness/chat-steps';
import { textStream } from './harness/openai-script-server';

const PARAGRAPH = 'Each process gets a fixed time quantum, then waits at the back of the queue.';

/** A note whose answer sits under headings that say what it is about; the paragraph never names it. */
const BODY = [
  '# Scheduling',
  '',
  '## Round robin',
  '',
  PARAGRAPH,
  '',
  '## Shortest job first',
  '',
  'Needs the length of the next burst in advance.',
  '',
  '#os #scheduling',
].join('\n');

const LABELS = ['Scheduling', 'Round robin', 'Shortest job first', '#os #scheduling'];
const QUESTION = 'How does round robin scheduling work?';

test('a question in a heading’s words gets the paragraph under it as the first source, and no bare heading', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'OS notes', BODY);
  await createNote(page, 'Garden', 'A robin nests in the hedge every spring.');

  const answer = await askNotes(page, QUESTION);
  const sources = answer.getByTestId('chat-citation');
  await expect(sources.first()).toHaveAttribute('data-index', '1');
  await expect(sources.first().locator('.source-title')).toHaveText('OS notes');
  await expect(sources.first().locator('.source-snippet')).toHaveText(PARAGRAPH);
  const snippets = await sources.locator('.source-snippet').allTextContents();
  expect(snippets.filter((snippet) => LABELS.includes(snippet.trim()))).toEqual([]);

  // The search view leads with the same paragraph, not the heading that names it.
  await page.getByTestId('nav-all').click();
  await page.getByTestId('search-input').fill('round robin');
  const results = page.getByTestId('search-result');
  await expect(results.first().getByTestId('search-snippet')).toHaveText(PARAGRAPH);
  const shown = await results.getByTestId('search-snippet').allTextContents();
  expect(shown.filter((snippet) => LABELS.includes(snippet.trim()))).toEqual([]);
});

test('the model reads the passage with its heading path; the citation shows the block alone', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: () => textStream('Round robin gives each process a quantum [1].'),
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await createNote(page, 'OS notes', BODY);

  await openChat(page);
  const answer = await askNotes(page, QUESTION);
  await expect(answer.getByTestId('chat-citation').first().locator('.source-snippet')).toHaveText(PARAGRAPH);
  const prompt = JSON.stringify(server.bodies.at(-1)?.messages ?? []);
  expect(prompt).toContain(`[1] OS notes \u2014 Scheduling \u203A Round robin: ${PARAGRAPH}`);
});
