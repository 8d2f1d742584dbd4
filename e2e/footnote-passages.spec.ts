import { createNote, expect, openApp, sourceLineOf, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askNotes, openChat } from './harness/chat-steps';
import { textStream } from './harness/openai-script-server';

const CLAIM = 'Harbour concrete grew stronger in seawater over the centuries.';
const SOURCE = 'Jackson et al. 2017: tobermorite crystals grew inside the volcanic ash mortar.';
/** The claim on line 2, its footnote's definition on line 4. */
const BODY = ['Written at the museum.', '', `${CLAIM}[^1]`, '', `[^1]: ${SOURCE}`].join('\n');

test('a word only the footnote holds finds the sentence citing it, shown with its footnote', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Roman concrete', BODY);
  await createNote(page, 'Minerals', 'Quartz and feldspar are the common ones.');

  await page.getByTestId('nav-all').click();
  await page.getByTestId('search-input').fill('tobermorite');
  const results = page.getByTestId('search-result');
  await expect(results).toHaveCount(1);
  const snippet = results.first().getByTestId('search-snippet');
  await expect(snippet).toContainText(CLAIM.slice(0, 40));
  await expect(snippet).toContainText('tobermorite crystals');
  await expect(snippet.locator('mark').first()).toHaveText('tobermorite');

  // Opening it shows the citing sentence, not the foot of the note.
  await results.first().click();
  await expect(page.getByTestId('note-title')).toHaveValue('Roman concrete');
  const revealed = page.getByTestId('preview').locator('[data-search-reveal]');
  await expect.poll(() => sourceLineOf(revealed)).toBe(2);
  await expect(revealed).toContainText(CLAIM);
});

test('the model reads a claim together with its footnote, one source, cited at the claim', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: () => textStream('It grew tobermorite crystals [1].'),
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await createNote(page, 'Roman concrete', BODY);
  await createNote(
    page,
    '都江堰',
    '都江堰至今仍在灌溉成都平原。[^1]\n\n[^1]: 据《史记·河渠书》记载，李冰主持修建。',
  );

  await openChat(page);
  const answer = await askNotes(page, 'What did the tobermorite study find?');
  const sources = answer.getByTestId('chat-citation');
  await expect(sources).toHaveCount(1);
  await expect(sources.first().locator('.source-snippet')).toContainText(CLAIM.slice(0, 40));
  const prompt = JSON.stringify(server.bodies.at(-1)?.messages ?? []);
  expect(prompt).toContain(`[1] Roman concrete \u2014 ${CLAIM}[^1] [^1]: ${SOURCE}`);

  // The same conversation: its second answer is the one to wait for.
  await askNotes(page, '河渠书记载了什么');
  const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  await expect(answers).toHaveCount(2);
  await expect(answers.last()).toHaveAttribute('data-status', 'completed');
  await expect(answers.last().getByTestId('chat-citation')).toHaveCount(1);
  const second = JSON.stringify(server.bodies.at(-1)?.messages ?? []);
  expect(second).toContain(
    '[1] 都江堰 \u2014 都江堰至今仍在灌溉成都平原。[^1] [^1]: 据《史记·河渠书》记载，李冰主持修建。',
  );
});
