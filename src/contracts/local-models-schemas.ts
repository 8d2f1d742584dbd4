import { z } from 'zod';

export const localModelIdSchema = z.string().trim().min(1, 'model is required').max(200);

/** An http(s) base URL without query or fragment, with a trailing slash; null or '' is the default host. */
const sourceHostSchema = z
  .string()
  .nullable()
  .transform((value, context) => {
    if (value === null || value.trim() === '') return null;
    const host = normalizeSourceHost(value);
    if (!host) {
      context.addIssue({ code: 'custom', message: 'must be an http(s) URL without query' });
      return z.NEVER;
    }
    return host;
  });

export const modelSourcesSchema = z.object({
  model_host: sourceHostSchema.default(null),
  lib_host: sourceHostSchema.default(null),
});

function normalizeSourceHost(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.search || url.hash) return undefined;
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}
