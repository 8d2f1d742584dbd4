import { expect, type BrowserContext, type Page, type Route } from '@playwright/test';
import type { TinyModelFiles } from '../../src/retrieval/__fixtures__/tiny-model';

/** A model host no request may really reach: tests answer it with `page.route`. */
export const MODEL_HOST = 'https://models.notes-agent.test/';

/** Settings → Local models: the one model host every download uses; then back to Search. */
export async function useModelHost(page: Page, host: string): Promise<void> {
  await page.getByTestId('settings-nav-local-models').click();
  await page.getByTestId('model-host').fill(host);
  await page.getByTestId('model-host-save').click();
  await expect(page.getByTestId('model-host-saved')).toBeVisible();
  await page.getByTestId('settings-nav-search').click();
}

/**
 * Answers a request to the app's own model folder with `file` (JSON text or
 * bytes, same-origin), or a real 404 when there is none.
 */
export function fulfilModelFile(route: Route, file: string | Uint8Array | undefined): Promise<void> {
  if (file === undefined) return route.fulfill({ status: 404, body: 'not found' });
  return route.fulfill({
    status: 200,
    body: typeof file === 'string' ? file : Buffer.from(file),
    headers: {
      'content-type': typeof file === 'string' ? 'application/json' : 'application/octet-stream',
      'cross-origin-resource-policy': 'same-origin',
    },
  });
}

/**
 * A route handler serving `<modelId>/resolve/main/<file>` from a generated tiny
 * model; every ONNX weight variant is the one tiny graph, anything else is 404.
 */
export function serveTinyModel(modelId: string, files: TinyModelFiles): (route: Route) => Promise<void> {
  return async (route) => {
    const path = new URL(route.request().url()).pathname;
    const prefix = `/${modelId}/resolve/main/`;
    const file = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    const body = /^onnx\/model(_quantized|_fp16)?\.onnx$/.test(file)
      ? files['onnx/model.onnx']
      : files[file as keyof TinyModelFiles];
    const headers = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
    if (!body) {
      await route.fulfill({ status: 404, headers, body: 'not found' });
      return;
    }
    await route.fulfill({ status: 200, headers, body: Buffer.from(body) });
  };
}

/**
 * Answers the model host for the whole context with `serve` (a
 * `serveTinyModel` handler): returns the URLs asked of it, and the weight
 * requests held unanswered while `hold()` is true (a download that never ends,
 * to cancel).
 */
export async function routeModelHost(
  context: BrowserContext,
  serve: (route: Route) => Promise<void>,
  hold: () => boolean = () => false,
): Promise<{ requests: string[]; held: Route[] }> {
  const requests: string[] = [];
  const held: Route[] = [];
  await context.route(`${MODEL_HOST}**`, async (route) => {
    if (hold() && route.request().url().endsWith('.onnx')) {
      held.push(route);
      return;
    }
    requests.push(route.request().url());
    await serve(route);
  });
  return { requests, held };
}
