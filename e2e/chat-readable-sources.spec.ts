import { createNote, expect, openApp, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

// A bilingual student with the UI in Chinese: the model picker explains in Chinese why an
// in-browser model cannot run here; a source taken from a note with math and a footnote reads as
// text, not as Markdown; and "use my notes" stays as they last left it.

test.use({ locale: 'zh-CN' });

const F16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

const NOTE = [
  '先来先服务 (FCFS) 的平均等待时间是 $\\bar{W}=\\frac{1}{n}\\sum W_i$。',
  '',
  '短作业优先 (SJF) 的平均等待时间最短[^1]。',
  '',
  '[^1]: 这是脚注：SJF 需要预知运行时间。',
].join('\n');

test('a q4f16 model this GPU cannot run says why in Chinese, in the option and its tooltip', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  // The test browser's WebGPU is SwiftShader, without shader-f16.
  const option = page.getByTestId('chat-model').locator(`option[value="webllm|${F16}"]`);
  await expect(option).toContainText('此设备无法运行');
  await expect(option).toHaveAttribute('title', /以 float16 计算，需要 WebGPU 功能 "shader-f16"；这块 GPU/);
  await expect(option).toHaveAttribute('title', /请改用 Qwen2\.5 0\.5B Instruct \(q4f32\)。$/);
  await expect(option).not.toHaveAttribute('title', /computes|needs|does not/);
});

test('sources from a note with math and a footnote read as text: no TeX, no [^1]: marker', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, '进程调度', NOTE);
  const math = await askNotes(page, 'FCFS 的平均等待时间');
  const mathSnippets = math.getByTestId('chat-citation').locator('.source-snippet');
  await expect(mathSnippets.filter({ hasText: 'W̄=1/n ∑ Wᵢ' })).toHaveCount(1);
  await expect(mathSnippets.filter({ hasText: /\\frac|\\bar|\\sum|\$/ })).toHaveCount(0);

  const footnote = await askNotes(page, 'SJF 需要预知运行时间吗');
  const footnoteSnippets = footnote.getByTestId('chat-citation').locator('.source-snippet');
  // The footnote goes with the sentence that cites it, as one source.
  await expect(
    footnoteSnippets.filter({
      hasText: /^短作业优先 \(SJF\) 的平均等待时间最短¹。\s*¹ 这是脚注：SJF 需要预知运行时间。$/,
    }),
  ).toHaveCount(1);
  await expect(footnoteSnippets.filter({ hasText: '[^1]' })).toHaveCount(0);
});

test('a new chat starts with the last "use my notes" choice; a reopened one keeps its own', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, '进程调度', NOTE);
  await askNotes(page, '什么是 FCFS？');
  const useNotes = page.getByTestId('chat-use-notes');

  // Remembered on this device: after a reload, the new chat asks the notes too.
  await page.reload();
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('chat-conversation')).toHaveCount(1);
  await expect(useNotes).toBeChecked();

  // Unticked for a chat about something else, which the next new chat inherits.
  await useNotes.uncheck();
  await page.getByTestId('chat-input').fill('你好');
  await page.getByTestId('chat-input').press('Enter');
  await expect(page.getByTestId('chat-conversation')).toHaveCount(2);
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]').last()).toHaveAttribute(
    'data-status',
    'completed',
  );
  await page.getByTestId('chat-new').click();
  await expect(useNotes).not.toBeChecked();

  // The chat that used the notes still does when reopened; the other one still does not.
  await page.getByTestId('chat-conversation').filter({ hasText: 'FCFS' }).click();
  await expect(page.getByTestId('chat-message').first()).toContainText('什么是 FCFS？');
  await expect(useNotes).toBeChecked();
  await page.getByTestId('chat-conversation').filter({ hasText: '你好' }).click();
  await expect(page.getByTestId('chat-message').first()).toContainText('你好');
  await expect(useNotes).not.toBeChecked();
});
