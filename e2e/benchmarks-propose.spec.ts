import { textStream } from './harness/openai-script-server';
import { addScriptProvider } from './harness/agent-steps';
import { createNote, expect, openApp, test } from './fixtures';

test.setTimeout(180_000);

/** What the script model asks about each heading (it reads the numbered sections of the prompt). */
const QUESTIONS: Record<string, string> = {
  Deadlock: 'Which four conditions cause a deadlock?',
  Banker: 'What does the banker algorithm check?',
  Paging: 'Which cache keeps page table entries?',
};

test('proposes questions for my headings with a chosen model, cancels one proposal, shows a failed one, accepts another and runs it two cases at a time', async ({
  page,
  requestLog,
  scriptServer,
}) => {
  const proposals: string[] = [];
  let firstArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
  const server = await scriptServer({
    reply: (body) => {
      const prompt = JSON.stringify(body.messages);
      if (!prompt.includes('numbered section')) return textStream('Not a proposal.');
      proposals.push(prompt);
      if (proposals.length === 1) {
        // The first proposal is held until the user cancels it (then nobody is left to answer).
        firstArrived();
        return new Promise<string>(() => undefined);
      }
      if (proposals.length === 2) return textStream('Sure! Here are some questions you could ask.');
      const text = (body.messages as Array<{ role: string; content: string }>).at(-1)!.content;
      const questions = [...text.matchAll(/^\[(\d+)\] .* > (.*)$/gmu)].map((match) => ({
        section: Number(match[1]),
        question: QUESTIONS[match[2]!] ?? 'What is this about?',
      }));
      return textStream(JSON.stringify({ questions }));
    },
  });

  await openApp(page);
  await createNote(
    page,
    'Deadlock notes',
    '# Deadlock\n\nMutual exclusion, hold and wait, no preemption, circular wait.\n\n# Banker\n\nThe banker algorithm checks for a safe state before granting.\n',
  );
  await createNote(page, 'Paging notes', '# Paging\n\nA TLB caches recent page table entries.\n');
  await addScriptProvider(page, server.url);

  await page.getByTestId('nav-benchmarks').click();
  const mine = page.getByTestId('bench-my-notes');
  await mine.locator('summary').click();
  const picker = mine.getByTestId('bench-propose-model');
  await expect(picker.locator('option', { hasText: 'Script · script-model' })).toHaveCount(1);
  await picker.selectOption({ label: 'Script · script-model' });
  const status = mine.getByTestId('bench-propose-status');

  // First proposal: the model is slow, so the user cancels it.
  await mine.getByTestId('bench-propose-run').click();
  await expect(status).toHaveAttribute('data-state', 'running');
  await expect(status).toContainText('Script · script-model');
  await arrived;
  await mine.getByTestId('bench-propose-cancel').click();
  await expect(status).toHaveAttribute('data-state', 'cancelled');
  await expect(status).toHaveText('Cancelled. Nothing was kept.');
  await expect(mine.getByTestId('bench-proposal')).toHaveCount(0);
  await expect(mine.getByTestId('bench-propose-error')).toHaveCount(0);

  // Second proposal: the model answers prose, and the panel says what went wrong.
  await mine.getByTestId('bench-propose-run').click();
  await expect(status).toHaveAttribute('data-state', 'failed');
  const error = mine.getByTestId('bench-propose-error');
  await expect(error).toHaveAttribute('data-code', 'BENCHMARK_RUN_FAILED');
  await expect(error).toContainText('The model did not answer with the questions asked for.');

  // Third proposal: one question per heading with text under it.
  await mine.getByTestId('bench-propose-run').click();
  await expect(status).toHaveAttribute('data-state', 'done');
  await expect(error).toHaveCount(0);
  const proposed = mine.getByTestId('bench-proposal');
  await expect(proposed).toHaveCount(3);
  await expect(status).toHaveText('3 questions proposed. Edit, accept or remove them.');
  expect(proposals).toHaveLength(3);
  // Only the sections went to the model, never the rest of the notebook.
  expect(proposals[2]).toContain('A TLB caches recent page table entries.');
  const row = (heading: string) => proposed.filter({ hasText: `› ${heading}` });
  await expect(row('Banker').getByTestId('bench-proposal-query')).toHaveValue(QUESTIONS.Banker!);

  // The user removes one, edits one and accepts two.
  await row('Deadlock').getByTestId('bench-proposal-remove').click();
  await row('Paging').getByTestId('bench-proposal-query').fill('what caches page table entries');
  await row('Paging').getByTestId('bench-proposal-accept').click();
  await row('Banker').getByTestId('bench-proposal-accept').click();
  await expect(proposed).toHaveCount(0);
  await expect(status).toHaveText('3 questions proposed. Edit, accept or remove them.');
  const cases = mine.getByTestId('bench-mine-case');
  await expect(cases).toHaveCount(2);
  await expect(cases.nth(0)).toContainText('what caches page table entries → Paging notes › Paging');
  await expect(cases.nth(1)).toContainText(`${QUESTIONS.Banker} → Deadlock notes › Banker`);
  await mine.getByTestId('bench-mine-id').fill('my-proposed');
  await mine.getByTestId('bench-mine-create').click();
  await expect(page.getByTestId('bench-dataset')).toHaveValue('my-proposed');

  // Concurrency: out of range is refused in the form, 2 is used and shown in the report.
  const concurrency = page.getByTestId('bench-concurrency');
  await concurrency.fill('9');
  await expect(page.getByTestId('bench-concurrency-error')).toHaveText('Enter a whole number from 1 to 8.');
  await expect(page.getByTestId('bench-run')).toBeDisabled();
  await concurrency.fill('2');
  await expect(page.getByTestId('bench-concurrency-error')).toHaveCount(0);
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('bench-config-concurrency')).toHaveAttribute('data-value', '2');
  await expect(page.getByTestId('bench-config-concurrency')).toContainText('Ran 2 at a time');
  await expect(page.getByTestId('bench-metric-row')).toHaveCount(3);
  await expect(page.getByTestId('bench-case-row')).toHaveCount(6);
  await page.getByTestId('bench-filter-mode').selectOption('fts');
  const fts = page.getByTestId('bench-case-row');
  await expect(fts).toHaveCount(2);
  // In case order, whatever finished first.
  expect(await fts.evaluateAll((rows) => rows.map((entry) => entry.getAttribute('data-passed')))).toEqual([
    'true',
    'true',
  ]);

  // The notebook still holds exactly the two notes; nothing left this machine but the model's calls.
  await page.getByTestId('nav-all').click();
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});
