import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { allowTasksAndExpectRun, undoAgentTasks } from './harness/agent-steps';
import { buildLlmWorkerDouble } from './harness/build-harness';
import { DOUBLE_ANSWER, DOUBLE_MODEL, DOUBLE_TASKS, REQUEST_LOG_PATH } from './harness/llm-double-constants';
import { createNote, DIST_DIR, expect, openApp, test } from './fixtures';

// The agent on an in-browser model that has no native tool calling, through
// the UI: the page, the core worker and everything in them are the product's;
// only the nested LLM worker is a test build of the same host on web-llm's
// engine double (harness/llm-worker-double.ts). The swap is done from here,
// not by a switch in the product, so the double stays out of dist/ (the last
// test proves it).
//
// Chromium does not show a nested worker's script request to Playwright, so
// the route is on the core worker's chunk, which it hands back with a prelude:
// the worker named "llm" (src/providers/webllm/client.ts) starts from a blob:
// URL of the test build instead of the product chunk. The double's own
// fetches are seen, which is how the spec reads what reached the engine.

// The service worker would answer the precached chunk itself, out of the route's reach.
test.use({ serviceWorkers: 'block' });

const CORE_WORKER_CHUNK = /\/assets\/core\.worker-[\w-]+\.js$/;

/** Runs before the core worker's own code; the LLM worker is created later, on first use. */
function swapLlmWorker(code: string): string {
  return `{
  const url = URL.createObjectURL(new Blob([${JSON.stringify(code)}], { type: 'text/javascript' }));
  const ProductWorker = self.Worker;
  self.Worker = class extends ProductWorker {
    constructor(script, options) {
      super(options && options.name === 'llm' ? url : script, options);
    }
  };
}
`;
}
// Strings only the double and its harness contain; minification keeps string literals.
const DOUBLE_MARKERS = ['chatcmpl-double', 'Finish loading on WebGPU - test double', REQUEST_LOG_PATH];

const BODY =
  '# Deadlock\n\n## Four conditions\n\nMutual exclusion, hold and wait, no preemption, circular wait.\n';

interface EngineRequest {
  model?: string;
  tools?: unknown;
  messages: Array<{ role: string; content: unknown }>;
}

let workerCode = '';

test.beforeAll(async () => {
  // One small in-memory build (the worker host, the double, Comlink).
  test.setTimeout(180_000);
  workerCode = await buildLlmWorkerDouble();
});

test('the agent runs on an in-browser model with prompted tools: search, read, a write with a diff, the trace names web-llm', async ({
  page,
  context,
  requestLog,
}) => {
  const requests: EngineRequest[] = [];
  await context.route(CORE_WORKER_CHUNK, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: swapLlmWorker(workerCode) + (await response.text()) });
  });
  await context.route(`**${REQUEST_LOG_PATH}`, async (route) => {
    requests.push(route.request().postDataJSON() as EngineRequest);
    await route.fulfill({ status: 204 });
  });

  await openApp(page);
  await createNote(page, 'Deadlock notes', BODY);

  await page.getByTestId('nav-agent').click();
  const picker = page.getByTestId('agent-model');
  const local = picker.locator(`option[value="webllm|${DOUBLE_MODEL}"]`);
  // Downloaded (the double's cache holds it) and runnable here, so it can be picked.
  await expect(local).toBeEnabled();
  await picker.selectOption(`webllm|${DOUBLE_MODEL}`);
  await page.getByTestId('agent-capabilities').locator('summary').click();
  await expect(page.locator('[data-testid="agent-tool"][data-tool="tasks.create"]')).toBeVisible();

  await page.getByTestId('agent-input').fill('Make a task list in my deadlock note');
  await page.getByTestId('agent-run').click();

  await allowTasksAndExpectRun(page, {
    note: 'Deadlock notes',
    task: DOUBLE_TASKS[0]!,
    model: `webllm · ${DOUBLE_MODEL}`,
    answer: DOUBLE_ANSWER,
    permissionTimeout: 30_000,
  });

  // Prompted tools: no `tools` field reached the engine; the system prompt
  // describes them and asks for `<tool_call>`; results came back as user text.
  expect(requests).toHaveLength(4);
  for (const request of requests) {
    expect(request).not.toHaveProperty('tools');
    expect(request.model).toBe(DOUBLE_MODEL);
  }
  const system = requests[0]!.messages[0]!;
  expect(system.role).toBe('system');
  expect(String(system.content)).toContain('<tool_call>');
  expect(String(system.content)).toContain('- tasks__create: ');
  expect(String(requests[3]!.messages.at(-1)!.content)).toMatch(/^Result of tasks__create /);

  await undoAgentTasks(page, { note: 'Deadlock notes', task: 'Explain the four conditions', body: BODY });
  expect(requestLog.foreign()).toEqual([]);
});

test('the product build carries no trace of the engine double', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(DIST_DIR);
  // The chunk the first test patches is there, under the name the route expects, and starts the LLM worker.
  const core = files.filter((path) => CORE_WORKER_CHUNK.test(`/${path.replace(/\\/g, '/')}`));
  expect(core).toHaveLength(1);
  expect(readFileSync(core[0]!, 'utf8')).toMatch(/name:\s*[`'"]llm[`'"]/);
  // The markers are real: the test build has them.
  for (const marker of DOUBLE_MARKERS) expect(workerCode).toContain(marker);
  const leaks = files.filter((path) => {
    const text = readFileSync(path, 'latin1');
    return DOUBLE_MARKERS.some((marker) => text.includes(marker));
  });
  expect(leaks).toEqual([]);
});
