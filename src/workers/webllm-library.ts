// web-llm (~6 MB minified) behind one module of its own, so its chunk has a
// name (`webllm-library-*.js`) that the service worker config can recognise:
// it is not precached for everyone, but cached on first use (vite.config.ts),
// so a downloaded local model also works offline.
export * from '@mlc-ai/web-llm';
