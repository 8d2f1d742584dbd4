import { describe, expect, it } from 'vitest';
import { readPairingAnswer } from './pairing-answer';

const companionError = (details: Record<string, unknown> = {}) => ({
  error: { code: 'PLUGIN_HOST_UNAVAILABLE', message: 'The pairing code is not valid.', details },
});

describe('telling the companion from another server on its port', () => {
  it("reads the companion's token", () => {
    expect(readPairingAnswer(200, { token: 'abc' })).toEqual({ kind: 'token', token: 'abc' });
  });

  it("reads the companion's refusal of a code, and of this page's origin with the origin", () => {
    expect(readPairingAnswer(401, companionError())).toEqual({
      kind: 'refused',
      status: 401,
      reason: undefined,
      origin: undefined,
    });
    expect(
      readPairingAnswer(403, companionError({ reason: 'origin_refused', origin: 'http://127.0.0.1:8080' })),
    ).toEqual({ kind: 'refused', status: 403, reason: 'origin_refused', origin: 'http://127.0.0.1:8080' });
  });

  it.each([
    ['a page that is not JSON', 200, null],
    ['a 404 from a web server', 404, null],
    ['JSON of another shape', 200, { ok: true }],
    ['an error of another shape', 403, { error: 'forbidden' }],
    ['an error body without details', 401, { error: { code: 'X', message: 'no' } }],
    ["the companion's error shape with a success status", 200, companionError()],
    ['a token with an error status', 500, { token: 'abc' }],
    ['a list', 200, [{ token: 'abc' }]],
  ])('%s is not the companion', (_case, status, body) => {
    expect(readPairingAnswer(status, body)).toEqual({ kind: 'not_companion' });
  });
});
