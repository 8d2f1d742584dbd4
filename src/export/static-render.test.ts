import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { createStaticRenderer, isSvgSafe, StaticRenderError, staticSourceHash } from './static-render';

const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

function request(
  source: string,
  kind: 'mermaid' | 'function_plot' = 'function_plot',
  theme: 'light' | 'dark' = 'light',
) {
  return { kind, source, sourceHash: staticSourceHash(source), theme } as const;
}

describe('createStaticRenderer', () => {
  it('draws plots in-process and caches by source hash, theme and size', async () => {
    const renderer = createStaticRenderer();
    const first = await renderer.render(request('y = x'));
    expect(first).toMatchObject({ mimeType: 'image/svg+xml', width: 640, height: 400 });
    expect(await renderer.render(request('y = x'))).toBe(first);
    await renderer.render(request('y = x', 'function_plot', 'dark'));
    await renderer.render({ ...request('y = x'), width: 300 });
    expect(renderer.cacheSize).toBe(3);
  });

  it('passes a mistyped plot setting on as a warning of the export, with the likely meant one', async () => {
    const result = await createStaticRenderer().render(request('y = 2x\ndomian: [0, 5]'));
    expect(result.warnings).toEqual(['Unknown setting "domian" is ignored; did you mean "domain"?']);
  });

  it('reports plot errors with their §12.4 code and position, and caches no failure', async () => {
    const renderer = createStaticRenderer();
    const failure = renderer.render(request('y = x\ny = globalThis'));
    await expect(failure).rejects.toBeInstanceOf(StaticRenderError);
    await expect(failure).rejects.toMatchObject({
      code: 'FUNCTION_PLOT_EXPRESSION_UNSAFE',
      line: 2,
      column: 5,
    });
    await expect(renderer.render(request('y = (x'))).rejects.toMatchObject({
      code: 'FUNCTION_PLOT_PARSE_FAILED',
    });
    expect(renderer.cacheSize).toBe(0);
  });

  it('asks the page for Mermaid and passes its §12.4 errors through', async () => {
    const calls: string[] = [];
    const renderer = createStaticRenderer({
      mermaid: {
        render: async (source, { theme }) => {
          calls.push(`${theme}:${source}`);
          if (source === 'bad') throw new AppError('MERMAID_PARSE_FAILED', 'Parse error on line 1');
          if (source === 'broken') throw new Error('chunk failed to load');
          return { svg, width: 10, height: 10, warnings: [] };
        },
      },
    });
    expect((await renderer.render(request('graph TD', 'mermaid', 'dark'))).content).toBe(svg);
    expect(calls).toEqual(['dark:graph TD']);
    await expect(renderer.render(request('bad', 'mermaid'))).rejects.toMatchObject({
      code: 'MERMAID_PARSE_FAILED',
    });
    await expect(renderer.render(request('broken', 'mermaid'))).rejects.toMatchObject({
      code: 'MERMAID_RENDER_FAILED',
    });
    await expect(createStaticRenderer().render(request('graph TD', 'mermaid'))).rejects.toMatchObject({
      code: 'MERMAID_RENDER_FAILED',
    });
  });

  it('refuses an SVG with script, handlers, javascript: URLs or foreignObject (MERMAID_SVG_UNSAFE)', async () => {
    for (const payload of [
      '<svg><script>alert(1)</script></svg>',
      '<svg><g onclick="alert(1)"></g></svg>',
      '<svg><a href="javascript:alert(1)"></a></svg>',
      '<svg><a xlink:href=" JaVaScRiPt:alert(1)"></a></svg>',
      '<svg><foreignObject><iframe src="x"></iframe></foreignObject></svg>',
      '<div>not svg</div>',
    ]) {
      expect(isSvgSafe(payload), payload).toBe(false);
      const renderer = createStaticRenderer({
        mermaid: { render: async () => ({ svg: payload, width: 1, height: 1, warnings: [] }) },
      });
      await expect(renderer.render(request('graph TD', 'mermaid'))).rejects.toMatchObject({
        code: 'MERMAID_SVG_UNSAFE',
      });
    }
    expect(isSvgSafe(svg)).toBe(true);
  });

  it('stops waiting for the page when the export is cancelled', async () => {
    const renderer = createStaticRenderer({ mermaid: { render: () => new Promise(() => undefined) } });
    const controller = new AbortController();
    const pending = renderer.render(request('graph TD', 'mermaid'), controller.signal);
    controller.abort(new DOMException('Cancelled', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
