import { z } from 'zod';

/** Lower-case id usable in file names and CSS: letters, digits, dash, dot, underscore. */
export const themeIdSchema = z
  .string()
  .min(2)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'use lower-case letters, digits, dot, dash or underscore');

/** major.minor.patch with an optional pre-release / build suffix. */
export const semverSchema = z
  .string()
  .max(64)
  .regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/, 'use a version like 1.2.3');

const packagePathSchema = z.string().min(1).max(255);

export const themeManifestSchema = z
  .object({
    theme_id: themeIdSchema,
    name: z.string().trim().min(1).max(100),
    version: semverSchema,
    author: z.string().trim().min(1).max(100),
    description: z.string().max(1000).optional(),
    min_app_version: semverSchema,
    is_dark: z.boolean(),
    css_entry: packagePathSchema.regex(/\.css$/i, 'the CSS entry must be a .css file'),
    preview: packagePathSchema.optional(),
  })
  // Matches ThemeManifest in ./themes (checked where both meet, in src/themes).
  .strict();

export const themePackageSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('zip'), name: z.string().min(1).max(255), bytes: z.instanceof(Uint8Array) }),
  z.object({
    kind: z.literal('folder'),
    name: z.string().min(1).max(255),
    entries: z.array(z.object({ path: z.string().min(1).max(1024), bytes: z.instanceof(Uint8Array) })),
  }),
]);
