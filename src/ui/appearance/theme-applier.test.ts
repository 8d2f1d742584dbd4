// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { appearance } from './appearance.svelte';
import { appliedPackageId, applyActiveTheme, applyBuiltinTheme } from './theme-applier';
import { PREVIEW_CSP, previewDocument } from './theme-preview';

beforeEach(() => {
  // jsdom has constructable stylesheets but not the adopted list.
  Object.defineProperty(document, 'adoptedStyleSheets', { value: [], writable: true, configurable: true });
  applyActiveTheme({ theme_id: 'system', is_dark: null, css: null });
  applyBuiltinTheme('system');
});

const adopted = () =>
  document.adoptedStyleSheets.map((sheet) => [...sheet.cssRules].map((rule) => rule.cssText).join(' '));

describe('applying themes to the page', () => {
  it('adopts an enabled package as a constructed sheet and sets its colour scheme', () => {
    applyBuiltinTheme('light');
    applyActiveTheme({ theme_id: 'night', is_dark: true, css: ':root { --color-bg: #000000; }' });
    expect(adopted()).toEqual([':root { --color-bg: #000000; }']);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.dataset.themePackage).toBe('night');
    expect(appliedPackageId()).toBe('night');
    expect(appearance.dark).toBe(true);
    // No <style> or <link> was written into the page.
    expect(document.querySelectorAll('style, link').length).toBe(0);
  });

  it('a settings change leaves an enabled package in charge; turning it off restores the built-in', () => {
    applyActiveTheme({ theme_id: 'night', is_dark: true, css: ':root { --color-bg: #000000; }' });
    applyBuiltinTheme('light');
    expect(document.documentElement.dataset.theme).toBe('dark');

    applyActiveTheme({ theme_id: 'light', is_dark: false, css: null });
    expect(adopted()).toEqual([]);
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(document.documentElement.dataset.themePackage).toBeUndefined();
    expect(appearance.dark).toBe(false);
  });

  it('replaces the previous package sheet instead of stacking them, and keeps sheets it does not own', () => {
    const foreign = new CSSStyleSheet();
    document.adoptedStyleSheets = [foreign];
    applyActiveTheme({ theme_id: 'a', is_dark: false, css: 'p { color: red; }' });
    applyActiveTheme({ theme_id: 'b', is_dark: false, css: 'p { color: blue; }' });
    expect(document.adoptedStyleSheets[0]).toBe(foreign);
    expect(adopted().slice(1)).toEqual(['p { color: blue; }']);
  });

  it('"system" leaves the colour scheme to the OS', () => {
    applyBuiltinTheme('dark');
    applyBuiltinTheme('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });
});

describe('the preview document', () => {
  it('carries its own CSP and cannot be broken out of by the CSS', () => {
    const html = previewDocument('a::after { content: "</style><img src=x>"; }', '<h1>Sample</h1>', 'en');
    const parsed = new DOMParser().parseFromString(html, 'text/html');
    expect(parsed.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toBe(
      PREVIEW_CSP,
    );
    expect(parsed.querySelectorAll('img').length).toBe(0);
    expect(parsed.querySelector('main.markdown-preview h1')?.textContent).toBe('Sample');
    expect(PREVIEW_CSP).toContain("default-src 'none'");
    expect(PREVIEW_CSP).not.toContain('script');
  });
});
