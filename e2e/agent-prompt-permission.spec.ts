import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { greeterOnScriptModel } from './harness/plugin-steps';
import { createNote, expect, openApp, test } from './fixtures';

const answered = (body: Record<string, unknown>) => toolMessages(body).length > 0;

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the approval prompt names the permission in Chinese, its id only as a detail', async ({
    page,
    scriptServer,
  }) => {
    const server = await scriptServer({
      reply: (body) =>
        answered(body)
          ? textStream('已创建。')
          : toolCallStream('notes__create', {
              title: '进程调度摘要',
              body: '# 进程调度摘要\n\n- 时间片轮转\n',
            }),
    });
    await openApp(page);
    await createNote(page, '进程调度', '# 进程调度\n\nFCFS、SJF、RR。\n');
    await addScriptProvider(page, server.url);
    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });
    await page.getByTestId('agent-input').fill('把我关于进程调度的笔记总结成一篇新笔记');
    await page.getByTestId('agent-run').click();

    const permission = page.getByTestId('agent-permission');
    // The dialog is named by the action it asks about; the request and the id describe it.
    await expect(permission).toHaveAccessibleName('允许智能体新建笔记“进程调度摘要”吗？');
    await expect(permission).toHaveAccessibleDescription(/notes\.create 请求权限：修改笔记。/);
    await expect(permission.getByTestId('permission-request')).toHaveText(
      'notes.create 请求权限：修改笔记。',
    );
    const id = permission.getByTestId('permission-id');
    await expect(id).toHaveText('notes.write');
    await expect(id).toHaveAttribute('title', '权限 ID：notes.write');
    // "Always" covers the permission, not this one tool: the button names every tool it lets through.
    await expect(permission.getByTestId('permission-always')).toHaveAccessibleDescription(
      '始终允许“修改笔记”涵盖这些工具：新建笔记、编辑笔记、移动笔记和设置标签、添加待办。它们都不再询问，本次及以后的运行都是如此，直到你在“设置 → 智能体”中收回。',
    );

    await permission.getByTestId('permission-allow-once').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  });
});

test('a plugin tool that declares no permission is asked for by its and its plugin’s names', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) =>
      answered(body) ? textStream('Greeted.') : toolCallStream('sample-greeter__greet', { name: 'Ada' }),
  });
  await openApp(page);
  await greeterOnScriptModel(page, server.url);
  await page.getByTestId('agent-input').fill('Greet Ada with the greeter plugin');
  await page.getByTestId('agent-run').click();

  const permission = page.getByTestId('agent-permission');
  // The tool and the plugin by the names the plugin page shows; the ids only as a detail.
  await expect(permission).toHaveAccessibleName(
    'Allow the agent to use “greet” from the plugin “Sample Greeter” (Use the tools of the plugin “Sample Greeter”)?',
  );
  await expect(permission.getByTestId('permission-request')).toHaveText(
    '“greet” from the plugin “Sample Greeter” asks for permission: Use the tools of the plugin “Sample Greeter”.',
  );
  await expect(permission.getByTestId('permission-id')).toHaveText('sample-greeter.tools');
  await permission.getByTestId('permission-deny').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
});
