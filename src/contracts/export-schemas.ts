import { z } from 'zod';
import { EXPORT_CODE_THEMES, EXPORT_FORMATS, EXPORT_PAGE_SIZES } from './exports';
import { JOB_STATUSES } from './jobs';
import { MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT } from './pages';

/** An unsaved preview's Markdown: enough for any real note, small enough to hold in memory. */
export const MAX_EXPORT_MARKDOWN_CHARS = 2_000_000;

export const exportOptionsSchema = z
  .object({
    theme_id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w.-]+$/, 'a theme id')
      .default('light'),
    include_title: z.boolean().default(true),
    include_metadata: z.boolean().default(false),
    page_size: z.enum(EXPORT_PAGE_SIZES).default('A4'),
    code_theme: z
      .enum(EXPORT_CODE_THEMES, {
        error: (issue) =>
          `unknown code theme ${JSON.stringify(String(issue.input).slice(0, 64))}; use one of ${EXPORT_CODE_THEMES.join(', ')}`,
      })
      .default('github-light'),
  })
  .strict();

export const exportSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('note'), note_id: z.string().min(1).max(200) }).strict(),
  z
    .object({
      type: z.literal('markdown'),
      // The size limit is checked by the service so it can answer PAYLOAD_TOO_LARGE.
      markdown: z.string(),
      title: z.string().max(300).optional(),
    })
    .strict(),
]);

export const createExportSchema = z.object({
  source: exportSourceSchema,
  format: z.enum(EXPORT_FORMATS),
  options: exportOptionsSchema.default({
    theme_id: 'light',
    include_title: true,
    include_metadata: false,
    page_size: 'A4',
    code_theme: 'github-light',
  }),
});
export type CreateExportInput = z.input<typeof createExportSchema>;

export const listExportsSchema = z.object({
  status: z.enum(JOB_STATUSES).optional(),
  format: z.enum(EXPORT_FORMATS).optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  offset: z.number().int().min(0).default(0),
});
export type ListExportsInput = z.input<typeof listExportsSchema>;
