import { createNote, expect, openApp, test } from './fixtures';

// Search reads a heading with its section and never returns the bare heading, so a
// "Benchmark my notes" case expecting a heading could never be hit. The block picker offers
// the blocks a question can find, grouped under the headings they sit in.
const BODY = [
  'Notes from the operating systems course.',
  '# Scheduling',
  'The scheduler picks the next process to run.',
  '## Round robin',
  'Each process gets a time slice in turn.',
  '# Memory',
  'A TLB caches recent page table entries.',
].join('\n\n');

test('the expected-answer picker offers no heading, only the blocks under them, grouped by section', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Operating systems', `${BODY}\n`);

  await page.getByTestId('nav-benchmarks').click();
  const mine = page.getByTestId('bench-my-notes');
  await mine.locator('summary').click();
  await mine.getByTestId('bench-mine-note').selectOption({ label: 'Operating systems' });
  const picker = mine.getByTestId('bench-mine-block');

  // The empty choice, then every block but the headings, in note order.
  await expect(picker.locator('option')).toHaveText([
    '',
    'Notes from the operating systems course.',
    'The scheduler picks the next process to run.',
    'Each process gets a time slice in turn.',
    'A TLB caches recent page table entries.',
  ]);
  // The headings say where each block sits, as search names a section.
  const sections = picker.locator('optgroup');
  await expect(sections).toHaveCount(3);
  expect(await sections.evaluateAll((groups) => groups.map((group) => group.getAttribute('label')))).toEqual([
    'Scheduling',
    'Scheduling › Round robin',
    'Memory',
  ]);
  await expect(sections.nth(1).locator('option')).toHaveText(['Each process gets a time slice in turn.']);

  // A block under a heading makes a case as before.
  await picker.selectOption({ label: 'Each process gets a time slice in turn.' });
  await mine.getByTestId('bench-mine-question').fill('How does round robin share the processor?');
  await mine.getByTestId('bench-mine-add').click();
  await expect(mine.getByTestId('bench-mine-case')).toHaveText([
    /How does round robin share the processor\? → Each process gets a time slice in turn\./,
  ]);
  expect(requestLog.foreign()).toEqual([]);
});
