// The one place the preview's third-party CSS is imported, so the app shell pulls
// it in once (import './ui/markdown/styles') instead of every component repeating it.
import 'katex/dist/katex.min.css';
import 'highlight.js/styles/github.css';
