import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { rewriteCoreAnswers } from './harness/core-hold';
import { importNotes, importVault, noteFile } from './harness/vault-import';

/** A Chinese-speaking user with mixed Chinese and English notes. */
test.use({ locale: 'zh-CN' });

const NOTES: ReadonlyArray<readonly [string, string]> = [
  [
    '操作系统笔记',
    '# 操作系统\n\n进程调度决定下一个运行的进程。\n\n进程间通信有管道和共享内存。\n\n进程的状态有就绪、运行和阻塞。',
  ],
  ['Kubernetes 运维', 'We run the 集群 on Kubernetes. 进程 monitoring uses Prometheus.'],
  ['杂记', '今天吃了饺子，然后复习进程调度。'],
];

/**
 * The core answers every vector search as if the embedding model could not
 * load (its cached files gone): the full-text fallback with the core's code.
 * Producing that for real takes a model download and a cleared cache; the UI
 * only ever sees this answer, so the test rewrites it on its way to the page.
 */
async function failEmbeddingModel(page: Page): Promise<void> {
  await rewriteCoreAnswers(page, (data) => {
    const value = (data as { value?: Record<string, unknown> } | null)?.value;
    if (value && value.mode === 'vector' && value.fallback_reason === null) {
      value.fallback_reason = 'EMBEDDING_MODEL_UNAVAILABLE';
      value.mode_used = 'fts';
    }
  });
}

const HINT = '可以用空格把词分开（如“集群 监控”会找出含其中任一个词的笔记），减少关键词，或换个说法再试。';
/** For a single word there is nothing to put spaces between. */
const ONE_WORD_HINT = '检查一下拼写，或只输入词的开头（如“sched”能找到“scheduling”），或换个词再试。';

test.describe('desktop 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a Chinese compound that matches nothing says to put spaces between the words, and that works', async ({
    page,
  }) => {
    await openApp(page);
    await importNotes(page, NOTES);
    const box = page.getByTestId('search-input');
    await box.fill('集群监控');
    await expect(page.getByTestId('search-no-results')).toContainText('没有与“集群监控”匹配的内容。');
    await expect(page.getByTestId('search-no-results-hint')).toHaveText(HINT);
    // No "0 篇笔记中有 0 处匹配" above a message that says the same.
    await expect(page.getByTestId('search-total')).toHaveCount(0);

    // What the hint says finds the note.
    await box.fill('集群 监控');
    await expect(page.getByTestId('search-result-title')).toHaveText(['Kubernetes 运维']);
    await expect(page.getByTestId('search-result').first().locator('mark')).toHaveText(['集群']);
    await expect(page.getByTestId('search-total')).toHaveText('1 篇笔记中有 1 处匹配');
    await expect(page.getByTestId('search-no-results')).toHaveCount(0);
  });

  test('nothing found in a folder names the folder the search was narrowed to', async ({ page }) => {
    await openApp(page);
    await importVault(
      page,
      {
        'vault/课程/os.md': noteFile('操作系统笔记', '进程调度决定下一个运行的进程。'),
        'vault/杂记.md': noteFile('Kubernetes 运维', 'We run the 集群 on Kubernetes.'),
      },
      2,
    );
    const folder = page.locator('[data-testid="folder-item"]').filter({ hasText: '课程' }).last();
    const path = await folder.getAttribute('data-folder');
    await folder.click();
    await page.getByTestId('search-mode').selectOption('hybrid');
    await page.getByTestId('search-input').fill('Kubernetes');
    await expect(page.getByTestId('search-no-results')).toContainText(
      `文件夹“${path}”中没有与“Kubernetes”匹配的内容。`,
    );
    await expect(page.getByTestId('search-no-results-hint')).toHaveText(ONE_WORD_HINT);
  });

  test('the search index settings say how vectors are normalised in Chinese, not as a code', async ({
    page,
  }) => {
    await openApp(page);
    await importNotes(page, [NOTES[0]!]);
    await page.goto('/#/settings/search');
    await expect(page.getByTestId('index-embedding')).toHaveText('hash-v1（版本 1，256 维，L2 归一化）');
    await expect(page.getByTestId('index-vectors')).toHaveText('hash-v1（版本 1，256 维，L2 归一化）');
  });
});

test.describe('phone 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Back from a note opened from the results puts the focus on that result again', async ({ page }) => {
    await openApp(page);
    await importNotes(page, NOTES);
    const box = page.getByTestId('search-input');
    await box.fill('进程');
    await expect(page.getByTestId('search-group')).toHaveCount(3);
    const second = page.getByTestId('search-result').nth(1);
    const title = await second.getByTestId('search-result-title').innerText();

    await second.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('note-title')).toHaveValue(title);
    await expect(page.getByTestId('note-title')).toBeInViewport();

    // The browser's Back.
    await page.goBack();
    await expect(second).toBeFocused();
    await expect(second).toHaveAttribute('aria-current', 'true');
    await expect(box).toHaveValue('进程');

    // The editor's own Back button as well.
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('note-title')).toBeInViewport();
    await page.getByRole('button', { name: '返回列表' }).click();
    await expect(second).toBeFocused();
  });

  test('an embedding model that cannot load says so, keeps full-text results, and leads to the settings', async ({
    page,
  }) => {
    await failEmbeddingModel(page);
    await openApp(page);
    await importNotes(page, NOTES);
    await page.getByTestId('search-mode').selectOption('vector');
    await page.getByTestId('search-input').fill('进程调度');
    const notice = page.getByTestId('search-fallback');
    await expect(notice).toHaveAttribute('data-reason', 'EMBEDDING_MODEL_UNAVAILABLE');
    await expect(notice).toContainText(
      '向量模型无法加载，以下为全文搜索结果。请在 设置 → 搜索 中重新下载该模型，或改用内置模型。',
    );
    await expect(page.getByTestId('search-result').first()).toBeVisible();
    const open = notice.getByRole('button', { name: '打开设置' });
    await expect(open).toBeInViewport({ ratio: 1 });
    await open.click();
    await expect(page.getByTestId('index-settings')).toBeVisible();
    await expect(page.getByTestId('index-embedding')).toContainText('hash-v1');
  });

  test('"N more matches" in a note is a target a finger can press, and shows the other Chinese matches marked', async ({
    page,
  }) => {
    await openApp(page);
    await importNotes(page, NOTES);
    await page.getByTestId('search-input').fill('进程');
    const group = page.getByTestId('search-group').filter({ hasText: '操作系统笔记' });
    const more = group.getByTestId('search-more-in-note');
    await expect(more).toHaveText('此笔记中还有 2 处匹配');
    const box = await more.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await more.tap();
    await expect(more).toHaveText('收起匹配');
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await expect(group.getByTestId('search-result')).toHaveCount(3);
    for (const snippet of await group.getByTestId('search-snippet').all()) {
      await expect(snippet.locator('mark').first()).toHaveText('进程');
    }
  });
});
