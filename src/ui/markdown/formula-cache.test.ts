// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { FormulaCache, renderTex } from './formula-cache';
import { createSanitizer } from './sanitize';

const sanitizer = createSanitizer(window);

function counted(render: (tex: string, displayMode: boolean) => string = renderTex) {
  const renderSpy = vi.fn(render);
  const sanitizeSpy = vi.fn((html: string) => sanitizer.sanitizeHtml(html));
  const cache = new FormulaCache({ render: renderSpy, sanitize: sanitizeSpy, maxEntries: 3 });
  return { cache, renderSpy, sanitizeSpy };
}

describe('FormulaCache', () => {
  it('serves an unchanged formula from the cache: neither KaTeX nor the sanitizer runs again', () => {
    const { cache, renderSpy, sanitizeSpy } = counted();
    const first = cache.html('x^2', false);
    expect(first).toContain('class="katex"');
    expect(cache.html('x^2', false)).toBe(first);
    expect(renderSpy).toHaveBeenCalledTimes(1);
    expect(sanitizeSpy).toHaveBeenCalledTimes(1);
    expect(cache.renders).toBe(1);
  });

  it('renders a changed formula afresh, and keys display and inline apart', () => {
    const { cache, renderSpy } = counted();
    const inline = cache.html('x^2', false);
    const changed = cache.html('x^3', false);
    const display = cache.html('x^2', true);
    expect(renderSpy).toHaveBeenCalledTimes(3);
    expect(changed).not.toBe(inline);
    expect(changed).toContain('<annotation encoding="application/x-tex">x^3</annotation>');
    expect(display).toContain('katex-display');
    expect(inline).not.toContain('katex-display');
  });

  it('is bounded: the least recently used formula is rendered again when asked for after it fell out', () => {
    const { cache, renderSpy } = counted();
    for (const tex of ['a', 'b', 'c']) cache.html(tex, false);
    cache.html('a', false);
    cache.html('d', false);
    expect(cache.size).toBe(3);
    expect(renderSpy).toHaveBeenCalledTimes(4);
    cache.html('a', false);
    expect(renderSpy).toHaveBeenCalledTimes(4);
    cache.html('b', false);
    expect(renderSpy).toHaveBeenCalledTimes(5);
  });

  it('holds only sanitized output: script and on* from a malicious renderer never reach it', () => {
    const { cache } = counted(
      (tex) =>
        `<span class="katex" onmouseover="alert(1)">${tex}<script>alert(2)</script><img src=x onerror=alert(3)></span>`,
    );
    for (let round = 0; round < 2; round += 1) {
      const html = cache.html('evil', false);
      expect(html).toContain('evil');
      expect(html).not.toMatch(/<script|onmouseover|onerror/i);
    }
  });

  it('shows a TeX error as escaped text: markup in the TeX stays text', () => {
    const { cache } = counted();
    const box = document.createElement('div');
    box.innerHTML = cache.html('\\frac{<img src=x onerror=alert(1)>', false);
    expect(box.querySelector('.katex-error')?.textContent).toBe('\\frac{<img src=x onerror=alert(1)>');
    expect(box.querySelector('img, [onerror]')).toBeNull();
  });
});
