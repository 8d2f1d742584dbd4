import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

/**
 * Bundles decode-harness.ts into one classic script (IIFE) in memory, for
 * `page.addScriptTag({ content })`. Nothing is written to dist/.
 */
export async function buildDecodeHarness(): Promise<string> {
  const entry = fileURLToPath(new URL('./decode-harness.ts', import.meta.url));
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name: 'decodeHarnessBundle', fileName: 'decode-harness' },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunk = (Array.isArray(output) ? output[0] : output)?.output[0];
  if (!chunk || chunk.type !== 'chunk') throw new Error('the decode harness did not bundle');
  return chunk.code;
}
