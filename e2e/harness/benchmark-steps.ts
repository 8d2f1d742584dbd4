import { expect, type Page } from '@playwright/test';

/** One case of a "my notes" dataset: a note, the block that answers, and the question asked. */
export interface MyNotesCase {
  title: string;
  block: string;
  question: string;
}

/**
 * Benchmarks → "Benchmark my notes": adds one case per entry and saves them as the dataset,
 * which is then the one selected for the next run.
 */
export async function createMyNotesDataset(page: Page, cases: readonly MyNotesCase[]): Promise<void> {
  await page.getByTestId('nav-benchmarks').click();
  const mine = page.getByTestId('bench-my-notes');
  await mine.locator('summary').click();
  for (const { title, block, question } of cases) {
    await mine.getByTestId('bench-mine-note').selectOption({ label: title });
    await mine.getByTestId('bench-mine-block').selectOption({ label: block });
    await mine.getByTestId('bench-mine-question').fill(question);
    await mine.getByTestId('bench-mine-add').click();
  }
  await expect(mine.getByTestId('bench-mine-case')).toHaveCount(cases.length);
  await mine.getByTestId('bench-mine-create').click();
  await expect(page.getByTestId('bench-dataset')).toHaveValue('my-notes');
}
