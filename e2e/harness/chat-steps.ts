import { expect, type Locator, type Page } from '@playwright/test';

/** Opens the Chat view on the model whose option reads `label` (the scripted provider's by default). */
export async function openChat(page: Page, label = 'Script · script-model'): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption({ label });
}

/**
 * Sends `text` in the open conversation and waits until it shows `answerCount`
 * answers, the last one completed. The count is given, not read before sending:
 * right after "New chat" the old conversation's answers may still be on screen.
 */
export async function askChat(page: Page, text: string, answerCount: number): Promise<void> {
  const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
  await expect(answers).toHaveCount(answerCount);
  await expect(answers.nth(answerCount - 1)).toHaveAttribute('data-status', 'completed');
}

/** Asks `question` in Chat with "use my notes" on, on the model Chat opens with; returns the completed answer. */
export async function askNotes(page: Page, question: string): Promise<Locator> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-use-notes').check();
  await page.getByTestId('chat-input').fill(question);
  await page.getByTestId('chat-send').click();
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'completed');
  return answer;
}
