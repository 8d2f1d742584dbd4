// markdown-it-mark ships no types; it is a markdown-it plugin like any other.
declare module 'markdown-it-mark' {
  import type { PluginSimple } from 'markdown-it';
  const markPlugin: PluginSimple;
  export default markPlugin;
}
