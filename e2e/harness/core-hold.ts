import type { Page } from '@playwright/test';

/**
 * Holds the core worker's answers to the page until released, so a test can
 * act while a request is in flight (a note switch that has not landed yet)
 * without racing a clock. Comlink listens on the worker's "message" event;
 * the wrapper queues those messages while held and delivers them in order.
 */
export async function installCoreHold(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Held = { on: boolean; queue: (() => void)[]; rewrite: ((data: unknown) => void) | null };
    const state: Held = { on: false, queue: [], rewrite: null };
    (window as unknown as { __coreHold: Held }).__coreHold = state;
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        const add = this.addEventListener.bind(this);
        this.addEventListener = ((type: string, listener: EventListener, opts?: AddEventListenerOptions) =>
          add(
            type,
            type === 'message'
              ? (event: Event) => {
                  state.rewrite?.((event as MessageEvent).data);
                  if (state.on) state.queue.push(() => listener(event));
                  else listener(event);
                }
              : listener,
            opts,
          )) as Worker['addEventListener'];
      }
    };
  });
}

/**
 * Every answer of the core passes through `rewrite` (which changes it in place) before the
 * page sees it: an answer a test cannot produce for real (a model whose cached files are gone).
 * `rewrite` runs in the page, so it can use nothing from the test's scope.
 */
export async function rewriteCoreAnswers(page: Page, rewrite: (data: unknown) => void): Promise<void> {
  await installCoreHold(page);
  await page.addInitScript(`window.__coreHold.rewrite = ${rewrite.toString()};`);
}

/** From now on the page receives nothing from the core worker until `releaseCore`. */
export async function holdCore(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __coreHold: { on: boolean } }).__coreHold.on = true;
  });
}

/** Delivers every held answer, in order, and stops holding. */
export async function releaseCore(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = (window as unknown as { __coreHold: { on: boolean; queue: (() => void)[] } }).__coreHold;
    state.on = false;
    const queue = state.queue.splice(0);
    for (const deliver of queue) deliver();
  });
}

/** How many answers are held: a request the page made has been answered by the worker. */
export function heldAnswers(page: Page): Promise<number> {
  return page.evaluate(
    () => (window as unknown as { __coreHold: { queue: unknown[] } }).__coreHold.queue.length,
  );
}
