/**
 * What answered the pairing request, judged by the reply's shape alone: the
 * companion (`server/companion/companion.ts`) answers `/pair` with `{ token }`
 * or with its error body `{ error: { code, message, details } }`, even to an
 * origin it refuses. Anything else on that port is not the companion, whatever
 * its status says.
 */
export type PairingAnswer =
  | { kind: 'token'; token: string }
  | { kind: 'refused'; status: number; reason: string | undefined; origin: string | undefined }
  | { kind: 'not_companion' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readPairingAnswer(status: number, body: unknown): PairingAnswer {
  if (!isRecord(body)) return { kind: 'not_companion' };
  if (status >= 200 && status < 300 && typeof body.token === 'string') {
    return { kind: 'token', token: body.token };
  }
  const error = body.error;
  if (
    status >= 400 &&
    isRecord(error) &&
    typeof error.code === 'string' &&
    typeof error.message === 'string' &&
    isRecord(error.details)
  ) {
    const { reason, origin } = error.details;
    return {
      kind: 'refused',
      status,
      reason: typeof reason === 'string' ? reason : undefined,
      origin: typeof origin === 'string' ? origin : undefined,
    };
  }
  return { kind: 'not_companion' };
}
