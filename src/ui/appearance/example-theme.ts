import { strToU8, zipSync } from 'fflate';

/**
 * The theme package "Download an example theme" gives, and README's Themes
 * section prints: a test keeps the two the same text, so the documented
 * example is the one that installs. Its rules use only what the app and the
 * exports share: root custom properties and the rendered note's
 * `.markdown-preview` class (the app's preview carries it beside `.preview`,
 * which exports lack).
 */
export const EXAMPLE_THEME_FOLDER = 'example-projector-theme';
export const EXAMPLE_THEME_FILE_NAME = 'notesagent-example-theme.zip';

export const EXAMPLE_THEME_YAML = `# theme.yaml: what the app checks before it installs the theme.
theme_id: example-projector # not "light" or "dark": those are the built-in themes
name: Projector
version: 1.0.0
author: Your name
description: Large text and dark blue headings for a projector.
min_app_version: 0.1.0
is_dark: false
css_entry: theme.css
`;

export const EXAMPLE_THEME_CSS = `/* Colours: custom properties on :root reach the app, HTML and PDF exports. */
:root {
  --color-bg: #fffdf5;
  --color-text: #1a1a1a;
  --color-accent: #9c1c1c;
  --color-code-bg: #f3efe2;
  --color-code-text: #1a1a1a;
}

/* The rendered note: .markdown-preview in the app and in HTML exports. */
.markdown-preview {
  font-size: 1.25rem;
}

.markdown-preview h1,
.markdown-preview h2 {
  color: #002b80;
}
`;

/** The example as a `.zip` with its files in one folder, as the import button takes it. */
export function exampleThemePackage(): Uint8Array {
  return zipSync({
    [EXAMPLE_THEME_FOLDER]: {
      'theme.yaml': strToU8(EXAMPLE_THEME_YAML),
      'theme.css': strToU8(EXAMPLE_THEME_CSS),
    },
  });
}
