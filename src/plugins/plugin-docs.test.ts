import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { companionConfigSchema } from '../../server/companion/companion';
import {
  commandContributionSchema,
  pluginBackendSchema,
  pluginManifestSchema,
  settingFieldSchema,
} from '../contracts/plugins-schemas';
import { PLUGIN_PERMISSIONS } from '../contracts/plugin-types';

const page = readFileSync(join(process.cwd(), 'docs/plugins.md'), 'utf8');

/** The keys an object schema accepts (a refined one through its inner object). */
function keysOf(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape) throw new Error('not an object schema');
  return Object.keys(shape);
}

const mentioned = (name: string) => page.includes(`\`${name}\``) || page.includes(`${name}:`);

describe('docs/plugins.md names everything the app accepts', () => {
  it.each([
    ['plugin.yaml', keysOf(pluginManifestSchema)],
    ['contributes', keysOf(pluginManifestSchema.shape.contributes.unwrap())],
    ['backend', [...new Set(pluginBackendSchema.options.flatMap((option) => keysOf(option)))]],
    ['backend.transport', pluginBackendSchema.options.map((option) => String(option.shape.transport.value))],
    ['permissions', [...PLUGIN_PERMISSIONS]],
    ['commands.yaml', keysOf(commandContributionSchema)],
    ['settings.yaml', keysOf(settingFieldSchema)],
    ['COMPANION_CONFIG', keysOf(companionConfigSchema)],
  ])('%s', (_file, fields) => {
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter((field) => !mentioned(field))).toEqual([]);
  });
});
