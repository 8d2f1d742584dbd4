import type { Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { DEFAULT_BENCHMARK_PICKER_BLOCKS } from '../src/contracts/benchmark';
import { createNote, expect, openApp, test } from './fixtures';

/** `MAX_BENCHMARK_NOTE_BODY`: characters of a note a benchmark dataset holds. */
const DATASET_NOTE_CHARS = 1_000_000;
/** Each filler paragraph is one line; with the blank line after it, 20,000 characters. */
const PARAGRAPH_CHARS = 19_998;
const PARAGRAPHS = 60;

const HEAD = '# Field log\n\nThe opening paragraph names the quokka.\n\n';
const TAIL = 'The closing paragraph names the wombat.\n';

/** 1.2 million characters: over the dataset bound, under the import limits and the indexer's cap. */
function fieldLog(): string {
  const filler = 'log line with nothing to find in it. ';
  const paragraphs: string[] = [];
  for (let index = 1; index <= PARAGRAPHS; index++) {
    const text = `Paragraph ${index}: ${filler.repeat(Math.ceil(PARAGRAPH_CHARS / filler.length))}`;
    paragraphs.push(text.slice(0, PARAGRAPH_CHARS));
  }
  return `${HEAD}${paragraphs.join('\n\n')}\n\n${TAIL}`;
}

const number = (value: number): string => value.toLocaleString('en');

/** Settings open over the benchmarks view, which keeps its state, and close again. */
async function switchToChinese(page: Page): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  await page.getByTestId('locale-select').selectOption('zh-CN');
  await expect(page.getByTestId('settings-nav-general')).toHaveText('通用');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings')).toBeHidden();
}

test('a dataset built from my notes says which note it holds only in part, and how much of it', async ({
  page,
  requestLog,
}) => {
  test.setTimeout(180_000);
  const body = fieldLog();
  expect(body.length).toBeGreaterThan(DATASET_NOTE_CHARS);
  // The copy ends at the last whole paragraph within the bound: the heading, the opening one and these.
  const keptFillers = Math.floor((DATASET_NOTE_CHARS - HEAD.length + 2) / (PARAGRAPH_CHARS + 2));
  const keptChars = HEAD.length + keptFillers * (PARAGRAPH_CHARS + 2) - 2;
  const blockCount = 2 + PARAGRAPHS + 1;

  await openApp(page);
  // The long note comes in the way a user brings one: an archive through the import dialog.
  await page.getByTestId('import-zip-input').setInputFiles({
    name: 'field-log.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync({ 'vault/Field log.md': strToU8(body) })),
  });
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-start').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('job-item').first()).toHaveAttribute('data-status', 'completed', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('note-item').filter({ hasText: 'Field log' })).toHaveCount(1);
  await createNote(page, 'Paging', '# Paging\n\nA TLB caches recent page table entries.\n');

  await page.getByTestId('nav-benchmarks').click();
  const mine = page.getByTestId('bench-my-notes');
  await mine.locator('summary').click();
  const pick = async (note: string, block: string, question: string) => {
    await mine.getByTestId('bench-mine-note').selectOption({ label: note });
    const blocks = mine.getByTestId('bench-mine-block');
    await expect(blocks.locator('option', { hasText: block })).toHaveCount(1);
    await blocks.selectOption({ label: block });
    await mine.getByTestId('bench-mine-question').fill(question);
    await mine.getByTestId('bench-mine-add').click();
  };
  await pick('Field log', 'The opening paragraph names the quokka.', 'Which animal opens the log?');
  // The picker offers only the blocks the dataset keeps, and says how many lie past them.
  const past = blockCount - (2 + keptFillers);
  // The heading names the group of blocks under it and is no choice of its own.
  await expect(mine.getByTestId('bench-mine-block').locator('option')).toHaveCount(1 + 1 + keptFillers);
  await expect(mine.getByTestId('bench-mine-block').locator('option', { hasText: 'wombat' })).toHaveCount(0);
  await expect(mine.getByTestId('bench-mine-blocks-past')).toHaveText(
    `${past} more blocks are past the part a dataset keeps (the first ${number(DATASET_NOTE_CHARS)} characters of a note) and cannot be picked.`,
  );
  await pick('Paging', 'A TLB caches recent page table entries.', 'What caches page table entries?');
  await expect(mine.getByTestId('bench-mine-case')).toHaveCount(2);
  await mine.getByTestId('bench-mine-id').fill('my-field-log');
  await mine.getByTestId('bench-mine-create').click();

  const notice = mine.getByTestId('bench-mine-cut');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('data-dataset-id', 'my-field-log');
  await expect(notice).toContainText('Dataset my-field-log holds one note only in part');
  await expect(notice).toContainText(`at most ${number(DATASET_NOTE_CHARS)} characters of a note`);
  // Only the long note is listed, with what the dataset kept of it.
  const listed = notice.getByTestId('bench-mine-cut-note');
  await expect(listed).toHaveCount(1);
  await expect(listed).toHaveText(
    `“Field log”: ${number(keptChars)} of ${number(body.length)} characters kept (${2 + keptFillers} of ${blockCount} blocks).`,
  );
  // The dataset was registered and chosen all the same.
  await expect(page.getByTestId('bench-dataset')).toHaveValue('my-field-log');

  // The same notice in Chinese.
  await switchToChinese(page);
  await expect(notice).toContainText('数据集 my-field-log 中有 1 篇笔记只保留了一部分');
  await expect(listed).toHaveText(
    `“Field log”：保留了 ${number(body.length)} 个字符中的 ${number(keptChars)} 个（${blockCount} 个块中的 ${2 + keptFillers} 个）。`,
  );
  await mine.getByTestId('bench-mine-note').selectOption({ label: 'Field log' });
  await expect(mine.getByTestId('bench-mine-blocks-past')).toHaveText(
    `还有 ${past} 个块超出了数据集保留的部分（每篇笔记的前 ${number(DATASET_NOTE_CHARS)} 个字符），无法选择。`,
  );
  // A dataset copies every live note, so one whose cases are all on the short note holds the long one cut too.
  await pick('Paging', 'A TLB caches recent page table entries.', '什么缓存页表项？');
  await mine.getByTestId('bench-mine-id').fill('my-paging');
  await mine.getByTestId('bench-mine-create').click();
  await expect(page.getByTestId('bench-dataset')).toHaveValue('my-paging');
  await expect(notice).toHaveAttribute('data-dataset-id', 'my-paging');
  await expect(notice).toContainText('数据集 my-paging 中有 1 篇笔记只保留了一部分');
  expect(requestLog.foreign()).toEqual([]);
});

test('a note with more blocks than the picker lists says it shows only the first of them', async ({
  page,
  requestLog,
}) => {
  // Short paragraphs, each a block: far under the dataset's character bound, so every block is kept.
  const items = 620;
  const body = `# Glossary\n\n${Array.from({ length: items }, (_, index) => `Term ${index + 1} is defined here.`).join('\n\n')}\n`;
  const blockCount = 1 + items;
  await openApp(page);
  await createNote(page, 'Glossary', body);

  await page.getByTestId('nav-benchmarks').click();
  const mine = page.getByTestId('bench-my-notes');
  await mine.locator('summary').click();
  await mine.getByTestId('bench-mine-note').selectOption({ label: 'Glossary' });
  const options = mine.getByTestId('bench-mine-block').locator('option');
  // The empty choice, then the first blocks in note order: terms 1 to 499, under the heading
  // (which names their group and is no choice of its own).
  await expect(options).toHaveCount(DEFAULT_BENCHMARK_PICKER_BLOCKS);
  await expect(mine.getByTestId('bench-mine-block').locator('optgroup')).toHaveAttribute('label', 'Glossary');
  await expect(options.nth(1)).toHaveText('Term 1 is defined here.');
  await expect(options.last()).toHaveText(`Term ${DEFAULT_BENCHMARK_PICKER_BLOCKS - 1} is defined here.`);
  await expect(
    options.filter({ hasText: `Term ${DEFAULT_BENCHMARK_PICKER_BLOCKS} is defined here.` }),
  ).toHaveCount(0);
  await expect(mine.getByTestId('bench-mine-blocks-first')).toHaveText(
    `Showing the first ${DEFAULT_BENCHMARK_PICKER_BLOCKS} of ${blockCount} blocks.`,
  );
  // Nothing lies past the dataset's part of this note, so the picker does not say so.
  await expect(mine.getByTestId('bench-mine-blocks-past')).toHaveCount(0);

  // A block from the list makes a case as any other.
  await mine.getByTestId('bench-mine-block').selectOption({ label: 'Term 42 is defined here.' });
  await mine.getByTestId('bench-mine-question').fill('Which term is the forty-second?');
  await mine.getByTestId('bench-mine-add').click();
  await expect(mine.getByTestId('bench-mine-case')).toHaveCount(1);

  await switchToChinese(page);
  await expect(mine.getByTestId('bench-mine-blocks-first')).toHaveText(
    `只显示前 ${DEFAULT_BENCHMARK_PICKER_BLOCKS} 个块（共 ${blockCount} 个）。`,
  );
  expect(requestLog.foreign()).toEqual([]);
});
