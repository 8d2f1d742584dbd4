import type { ExportOptions } from '../contracts/exports';
import type { ExportContext } from './exporter';
import { createStaticRenderer, type MermaidStaticPort } from './static-render';

export const DEFAULT_TEST_OPTIONS: ExportOptions = {
  theme_id: 'light',
  include_title: true,
  include_metadata: false,
  page_size: 'A4',
  code_theme: 'github-light',
};

/** An export context for exporter tests: plots drawn in-process, Mermaid by the given fake page. */
export function testExportContext(
  options: Partial<ExportOptions> = {},
  mermaid?: MermaidStaticPort,
  signal: AbortSignal = new AbortController().signal,
): ExportContext {
  return {
    options: { ...DEFAULT_TEST_OPTIONS, ...options },
    renderer: createStaticRenderer({ mermaid }),
    signal,
  };
}
