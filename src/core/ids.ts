/** Opaque ids (§4.1): callers must not parse them; the prefix only helps humans reading logs. */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, '')}`;
}

export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
