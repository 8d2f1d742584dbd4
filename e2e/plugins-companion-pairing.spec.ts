import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { companionConfigSchema, startCompanion } from '../server/companion/companion';
import { openPluginSettings } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/** Pairs from Settings → Plugins → Companion with `url` and a code. */
async function pairWith(page: Page, url: string): Promise<void> {
  const section = await openPluginSettings(page);
  const companion = section.getByTestId('plugin-companion');
  await companion.locator('summary').click();
  await companion.getByRole('textbox', { name: 'Address' }).fill(url);
  await companion.getByRole('textbox', { name: 'Pairing code' }).fill('12345678');
  await companion.getByRole('button', { name: 'Pair' }).click();
}

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** Another local service on the port, answering every request as `answer` does. */
async function otherServer(answer: Answer): Promise<{ port: number; close(): void }> {
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** What the toast says for each: a readable answer is surely not the companion; an unreadable one may be. */
const otherServers: Array<[string, Answer, (port: number, origin: string) => string]> = [
  [
    // An API any page may read (FastAPI's CORS middleware with allow_origins=["*"]) that has no /pair.
    'an API open to every page',
    (request, response) => {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
      if (request.method === 'OPTIONS') {
        response.writeHead(204, cors);
        response.end();
        return;
      }
      response.writeHead(404, { ...cors, 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: 'Not Found' }));
    },
    (port) =>
      `Something else is answering on port ${port}, not the NotesAgent companion. Is the companion running? npm run companion prints the port it listens on.`,
  ],
  [
    // A file server that lets no page read it but lets any page embed what it serves: a no-cors
    // request (the app is cross-origin isolated) sees that it answered, and nothing more.
    'a file server without CORS',
    (_request, response) => {
      response.writeHead(404, { 'cross-origin-resource-policy': 'cross-origin' });
      response.end();
    },
    (port, origin) =>
      `Something on port ${port} answers but not to this page: another program, or a companion that does not allow ${origin} (add it to allowed_origins in COMPANION_CONFIG). npm run companion prints the port it listens on.`,
  ],
];

for (const [name, answer, says] of otherServers) {
  test(`pairing with ${name} on the port says what answers there, not that the pairing code was wrong`, async ({
    page,
  }) => {
    const server = await otherServer(answer);
    try {
      await openApp(page);
      await pairWith(page, `http://127.0.0.1:${server.port}`);
      const origin = new URL(page.url()).origin;
      await expect(page.getByTestId('toast').filter({ hasText: `port ${server.port}` })).toHaveText(
        says(server.port, origin),
      );
      await expect(page.getByTestId('toast').filter({ hasText: /pairing code/ })).toHaveCount(0);
    } finally {
      server.close();
    }
  });
}

test("pairing with a companion that refuses this page's origin names the origin to allow", async ({
  page,
}) => {
  const companion = await startCompanion({
    config: companionConfigSchema.parse({
      plugins_dir: mkdtempSync(join(tmpdir(), 'companion-')),
      allowed_origins: ['http://127.0.0.1:1'],
    }),
    log: () => {},
  });
  try {
    await openApp(page);
    const origin = new URL(page.url()).origin;
    await pairWith(page, `http://127.0.0.1:${companion.port}`);
    await expect(page.getByTestId('toast').filter({ hasText: 'allowed_origins' })).toHaveText(
      `The plugin companion refused this page (${origin}). Add it to allowed_origins in COMPANION_CONFIG and restart the companion.`,
    );
  } finally {
    await companion.close();
  }
});
