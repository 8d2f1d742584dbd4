import { expect, openApp, test } from './fixtures';

// The Agent view's model picker offers an in-browser model the test browser cannot run
// (its WebGPU is SwiftShader, without shader-f16), labelled so, as the chat's picker does.
// Picking it, the user reads why beside the picker, cannot start a run on it, and is
// offered its q4f32 twin, in the UI's language, at a desk and on a phone.

const F16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const F32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

for (const { name, use, texts } of [
  {
    name: 'at a desk, in English',
    use: { viewport: { width: 1280, height: 800 } },
    texts: {
      label: 'cannot run here',
      reason:
        /computes in float16, which needs the WebGPU feature "shader-f16"; this GPU \(.+\) does not offer it\./,
      twin: 'Use Qwen2.5 0.5B Instruct (q4f32) instead',
      other: /[\u4e00-\u9fff]/,
    },
  },
  {
    name: 'on a phone, in Chinese',
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' },
    texts: {
      label: '此设备无法运行',
      reason:
        /以 float16 计算，需要 WebGPU 功能 "shader-f16"；这块 GPU（.+）不支持。请改用 Qwen2\.5 0\.5B Instruct \(q4f32\)。$/,
      twin: '改用 Qwen2.5 0.5B Instruct (q4f32)',
      other: /computes|needs|does not|instead/,
    },
  },
]) {
  test.describe(name, () => {
    test.use(use);

    test('a model this device cannot run says why beside the picker, and Run stays off until another is chosen', async ({
      page,
    }) => {
      await openApp(page);
      await page.evaluate(() => (location.hash = '#/agent'));
      const picker = page.getByTestId('agent-model');
      const option = picker.locator(`option[value="webllm|${F16}"]`);
      await expect(option).toContainText(texts.label);

      await picker.selectOption(`webllm|${F16}`);
      await page.getByTestId('agent-input').fill('Find my Lyapunov note');
      const run = page.getByTestId('agent-run');
      const refusal = page.getByTestId('agent-model-refusal');
      const reason = refusal.locator('p');
      await expect(reason).toHaveText(texts.reason);
      await expect(reason).not.toHaveText(texts.other);
      await expect(refusal).toBeInViewport();
      await expect(run).toBeDisabled();
      // A screen reader hears why Run is off.
      await expect(run).toHaveAccessibleDescription(texts.reason);
      await expect(page.getByTestId('agent-run-item')).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );

      // The q4f32 twin runs here: one tap picks it, and the run can start.
      await refusal.getByTestId('agent-use-twin').getByText(texts.twin).click();
      await expect(picker).toHaveValue(`webllm|${F32}`);
      await expect(refusal).toHaveCount(0);
      await expect(run).toBeEnabled();
    });
  });
}
