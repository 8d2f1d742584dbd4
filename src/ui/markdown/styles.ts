// The one place the preview's third-party CSS (and its own Obsidian styles) is imported, so the app shell pulls
// it in once (import './ui/markdown/styles') instead of every component repeating it.
// Code colours come from the theme tokens (src/themes/note-content.ts), not a fixed highlight.js sheet.
import 'katex/dist/katex.min.css';
import './obsidian.css';
