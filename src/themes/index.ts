export {
  BUILTIN_THEMES,
  BUILTIN_TOKENS,
  isBuiltinTheme,
  tokensCss,
  type ThemeTokens,
} from './builtin-themes';
export {
  checkThemeCss,
  DEFAULT_CSS_LIMITS,
  SECURE_UI_ATTRIBUTE,
  type CheckedCss,
  type CssFinding,
  type CssSafetyLimits,
  type CssUnsafeReason,
  type ThemeCssOptions,
} from './css-safety';
export { checkResource, mimeForPath, sniffResource, toDataUrl, type SniffedResource } from './resource-mime';
export { secureUiCss, themeStylesheet } from './theme-css';
export {
  checkThemePackage,
  compareVersions,
  parseThemeManifest,
  THEME_MANIFEST_FILE,
  type CheckedThemePackage,
  type ThemePackageFiles,
} from './theme-package';
export { NOTE_CONTENT_CSS } from './note-content';
export { CODE_TEXT_TOKENS, codeColourDefaultsCss } from './code-colours';
export {
  contrastRatio,
  parseCssColour,
  readableOn,
  relativeLuminance,
  schemeForBackground,
} from './contrast';
