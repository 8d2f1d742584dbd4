import { createNote, expect, openApp, test } from './fixtures';

// The picker is told each block's type by the core's parser: a heading is grouped on as a
// heading, never guessed from a `#` (an indented code line `# …` stays code and is offered),
// and a block with nothing a question could ask for is not offered at all.
const BODY = [
  '#math #exam-week',
  '# Linear algebra',
  'Eigenvalues solve det(A − λI) = 0.',
  '    # solve with numpy.linalg.eig',
  '---',
  '![](plot.png)',
  'Setext section\n==============',
  '#exam-week',
  'The exam is in week 12.',
].join('\n\n');

test('the answer picker groups by real headings and offers only blocks with something to answer', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Exam prep', `${BODY}\n`);

  await page.getByTestId('nav-benchmarks').click();
  const mine = page.getByTestId('bench-my-notes');
  await mine.locator('summary').click();
  await mine.getByTestId('bench-mine-note').selectOption({ label: 'Exam prep' });
  const picker = mine.getByTestId('bench-mine-block');

  // No tag line, rule or lone image; the indented code that starts with `#` is offered as code.
  await expect(picker.locator('option')).toHaveText([
    '',
    'Eigenvalues solve det(A − λI) = 0.',
    '# solve with numpy.linalg.eig',
    'The exam is in week 12.',
  ]);
  // Sections come from the headings only: the code line names none, the setext heading (level 1) does.
  const sections = picker.locator('optgroup');
  expect(await sections.evaluateAll((groups) => groups.map((group) => group.getAttribute('label')))).toEqual([
    'Linear algebra',
    'Setext section',
  ]);
  await expect(sections.nth(0).locator('option')).toHaveText([
    'Eigenvalues solve det(A − λI) = 0.',
    '# solve with numpy.linalg.eig',
  ]);
  await expect(sections.nth(1).locator('option')).toHaveText(['The exam is in week 12.']);

  // The code block makes a case like any other block.
  await picker.selectOption({ label: '# solve with numpy.linalg.eig' });
  await mine.getByTestId('bench-mine-question').fill('Which numpy call finds eigenvalues?');
  await mine.getByTestId('bench-mine-add').click();
  await expect(mine.getByTestId('bench-mine-case')).toHaveText([
    /Which numpy call finds eigenvalues\? → # solve with numpy\.linalg\.eig/,
  ]);
  expect(requestLog.foreign()).toEqual([]);
});
