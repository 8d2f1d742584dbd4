/** UTC ISO 8601 (§4.1), e.g. 2026-08-31T10:30:00.000Z. */
export function toIsoUtc(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export const isoUtcPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
