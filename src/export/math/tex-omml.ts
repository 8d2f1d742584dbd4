import katex from 'katex';
import { mml2omml } from 'mathml2omml';

/**
 * TeX to Office Math (`<m:oMath>`), throwing on TeX that KaTeX cannot parse. The
 * TeX annotation KaTeX keeps inside its MathML has no OMML form and is dropped.
 */
export function texToOmml(tex: string, display: boolean): string {
  const mathml = katex
    .renderToString(tex, { displayMode: display, throwOnError: true, output: 'mathml' })
    .replace(/^<span class="katex(?:-display)?">(?:<span class="katex">)?/, '')
    .replace(/(?:<\/span>)+$/, '')
    .replace(/<annotation\b[^>]*>[\s\S]*?<\/annotation>/g, '');
  const omml = mml2omml(mathml);
  if (!omml.includes('<m:oMath')) throw new Error('the formula has no Office Math form');
  return omml;
}
