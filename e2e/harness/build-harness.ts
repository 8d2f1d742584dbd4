import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

/**
 * Bundles one entry (an absolute path) and what it imports into a single file, in memory:
 * nothing is written to dist/. The e2e harnesses and the Chromium benches' pages use it.
 */
export async function bundleEntry(entry: string, format: 'iife' | 'es', name: string): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry, formats: [format], name, fileName: name },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunk = (Array.isArray(output) ? output[0] : output)?.output[0];
  if (!chunk || chunk.type !== 'chunk') throw new Error(`${entry} did not bundle`);
  return chunk.code;
}

/** A test entry beside this file, bundled. */
function bundle(file: string, format: 'iife' | 'es', name: string): Promise<string> {
  return bundleEntry(fileURLToPath(new URL(file, import.meta.url)), format, name);
}

/** decode-harness.ts as one classic script (IIFE), for `page.addScriptTag({ content })`. */
export function buildDecodeHarness(): Promise<string> {
  return bundle('./decode-harness.ts', 'iife', 'decodeHarnessBundle');
}

/** llm-worker-double.ts as one module-worker script, served in place of the product's LLM worker chunk. */
export function buildLlmWorkerDouble(): Promise<string> {
  return bundle('./llm-worker-double.ts', 'es', 'llmWorkerDouble');
}
