import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import './transfer-handlers';

/** Both ends of a Comlink link in one thread, over a real MessageChannel. */
function link<T extends object>(api: T): Comlink.Remote<T> {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(api, port1 as unknown as Comlink.Endpoint);
  return Comlink.wrap<T>(port2 as unknown as Comlink.Endpoint);
}

describe('errors across the worker boundary', () => {
  const remote = link({
    async notFound(): Promise<void> {
      throw new AppError('NOTE_NOT_FOUND', 'This note does not exist.', { note_id: 'n1' });
    },
    async crash(): Promise<void> {
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /src/db/secret-path.ts:12");
    },
  });

  it('arrive as AppError with code, status and details', async () => {
    const error = await remote.notFound().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'NOTE_NOT_FOUND', status: 404, details: { note_id: 'n1' } });
  });

  it('never carry a raw stack or message of an unexpected error', async () => {
    const original = console.error;
    console.error = () => undefined;
    try {
      const error = (await remote.crash().catch((caught: unknown) => caught)) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(JSON.stringify(error.toEnvelope())).not.toContain('secret-path');
      expect(error.stack ?? '').not.toContain('secret-path');
    } finally {
      console.error = original;
    }
  });
});
