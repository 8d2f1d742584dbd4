import { describe, expect, it } from 'vitest';
import { parseXml, serializeXml } from './xml-dom';

describe('parseXml / serializeXml', () => {
  it('reads elements, attributes, entities and text, and writes them back', () => {
    const xml = '<m:r><m:t xml:space="preserve">a&lt;b &gt; c &amp; d</m:t><m:sup/></m:r>';
    expect(serializeXml(parseXml(xml))).toBe(xml);
    expect(parseXml("<mi mathvariant='normal'>&#x221E;&#8734;</mi>").documentElement.textContent).toBe('∞∞');
  });

  it('refuses XML that is not well-formed, where xmldom alone would repair it', () => {
    expect(() => parseXml('<m:t>a<b</m:t>')).toThrow(/not well-formed/);
    expect(() => parseXml('<m:e><m:r></m:e>')).toThrow(/not well-formed/);
    expect(() => parseXml('<m:e>')).toThrow(/not well-formed/);
    expect(() => parseXml('<m:t>a &nbsp; b</m:t>')).toThrow(/not well-formed/);
    expect(() => parseXml('a b')).toThrow(/not well-formed/);
  });
});
