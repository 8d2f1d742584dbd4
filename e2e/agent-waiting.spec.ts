import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { greeterOnScriptModel } from './harness/plugin-steps';
import { createNote, expect, openApp, test } from './fixtures';

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a run says what it waits on, the prompt says in Chinese what it will write, and a stop is not called a denial', async ({
    page,
    scriptServer,
  }) => {
    // The model's first answer is held until the test lets it go: a slow provider.
    let answerModel: () => void = () => undefined;
    const modelAnswered = new Promise<void>((resolve) => (answerModel = resolve));
    const server = await scriptServer({
      reply: async (body) => {
        if (toolMessages(body).length > 0) return textStream('已创建。');
        await modelAnswered;
        return toolCallStream('notes__create', {
          title: '进程调度摘要',
          body: '# 进程调度摘要\n\n- 先来先服务\n- 时间片轮转\n',
        });
      },
    });
    await openApp(page);
    await createNote(page, '进程调度', '# 进程调度\n\nFCFS、SJF、RR。\n');
    await addScriptProvider(page, server.url);
    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });

    await page.getByTestId('agent-input').fill('把我关于进程调度的笔记总结成一篇新笔记');
    await page.getByTestId('agent-run').click();
    const run = page.getByTestId('agent-run-item').first();
    const phase = page.getByTestId('agent-run-phase');
    // Not "queued" while the model is working on it, and the run says on whom it waits.
    await expect(phase).toHaveText('正在等待 Script · script-model 回答…');
    await expect(run.getByTestId('agent-run-status')).toHaveText('运行中');

    answerModel();
    const permission = page.getByTestId('agent-permission');
    await expect(permission.getByTestId('permission-summary')).toHaveText('新建笔记“进程调度摘要”。');
    await expect(permission.getByTestId('permission-diff')).toContainText('+- 先来先服务');
    await expect(permission).toBeFocused();
    await expect(run.getByTestId('agent-run-status')).toHaveText('等待你的批准');
    await expect(phase).toHaveText('正在等待你批准运行 新建笔记。');

    await page.getByTestId('agent-cancel').click();
    await expect(run).toHaveAttribute('data-status', 'cancelled');
    await expect(phase).toHaveText('');
    const timeline = page.getByTestId('agent-timeline');
    await expect(timeline.locator('[data-event="PermissionResolved"]')).toHaveText(
      '权限“修改笔记”：未作答（运行已停止）',
    );
    const call = timeline.locator('[data-event="ToolCall"]');
    await expect(call.locator('[data-status]')).toHaveText(/^已停止 · \d+ 毫秒$/);
    await call.getByText('结果').click();
    await expect(call.getByTestId('agent-tool-cancelled')).toHaveText(
      '运行在 新建笔记 执行前已停止，因此没有做任何更改。',
    );
    await page.getByTestId('nav-all').click();
    await expect(page.getByTestId('note-item')).toHaveCount(1);
  });
});

test('a plugin tool’s prompt says what the tool does, and it is answered from the keyboard', async ({
  page,
  scriptServer,
  requestLog,
}) => {
  const server = await scriptServer({
    reply: (body) => {
      const result = toolMessages(body).at(-1);
      return result
        ? textStream(`The plugin answered: ${result.content ?? ''}`)
        : toolCallStream('sample-greeter__greet', { name: '小明' });
    },
  });
  await openApp(page);
  await greeterOnScriptModel(page, server.url);

  const input = page.getByTestId('agent-input');
  await input.fill('Greet 小明 with the greeter plugin');
  await input.press('Tab');
  await expect(page.getByTestId('agent-run')).toBeFocused();
  await page.keyboard.press('Enter');

  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeFocused();
  await expect(permission.getByTestId('permission-tool-description')).toHaveText(
    'What it does: Greets a person by name.',
  );
  await expect(permission.getByTestId('permission-arguments')).toContainText('小明');
  // From the prompt, the first control is the disclosure of the arguments, then "Allow once".
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(permission.getByTestId('permission-allow-once')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(permission).toHaveCount(0);
  await expect(input).toBeFocused();

  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  const call = page.getByTestId('agent-timeline').locator('[data-event="ToolCall"]');
  await expect(call.locator('[data-status]')).toHaveText(/^done · \d+ ms$/);
  await expect(page.getByTestId('agent-timeline').locator('[data-event="RunCompleted"]')).toContainText(
    'The plugin answered: Hello, 小明!',
  );
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});
