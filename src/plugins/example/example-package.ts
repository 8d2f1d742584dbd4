import { strToU8, zipSync } from 'fflate';

/*
 * The example plugin's files, as text: a plugin.yaml and a server.js a user
 * unpacks and reads, so their comments are the documentation. Kept as strings
 * rather than imported files (`?raw`) because the core also runs in Node (the
 * bench CLIs, the agent service), which imports no such files.
 */
const MANIFEST = [
  '# An example NotesAgent plugin: one tool the agent can call. Install this .zip as it is',
  '# (Settings → Plugins → Install) to try a plugin, or change it to write your own.',
  '# 一个示例插件：为智能体提供一个工具。可直接安装试用，也可以修改它来编写自己的插件。',
  '',
  '# A unique id: lower-case letters, digits and dashes. Tools are named <id>.<tool>.',
  'id: example-word-count',
  'name: Word count (example)',
  'version: 1.0.0',
  'description: Counts the words of a text; each Chinese character counts as one word.',
  '',
  '# What the plugin may do beyond its own tools (none here). `network` lets the server',
  '# call the internet; `secrets.use` lets it read secrets the user saves for it.',
  'permissions: []',
  '',
  '# The MCP server. `worker` runs server.js in the browser, in a worker of its own that',
  "# cannot read your notes or the app's storage.",
  'backend:',
  '  type: mcp',
  '  transport: worker',
  '  entry: server.js',
  '',
  '# The tools the server must offer: the app refuses a server that offers others.',
  'contributes:',
  '  tools: [example-word-count.count]',
].join('\n');

const SERVER = [
  "// The plugin's MCP server. The app imports this module in a worker and calls its default",
  '// export with the MCP SDK (it cannot import packages itself): { Server, McpServer,',
  '// ListToolsRequestSchema, CallToolRequestSchema }. Return the server; the app connects it.',
  'export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {',
  '  const server = new Server(',
  "    { name: 'example-word-count', version: '1.0.0' },",
  '    { capabilities: { tools: {} } },',
  '  );',
  '',
  '  server.setRequestHandler(ListToolsRequestSchema, async () => ({',
  '    tools: [',
  '      {',
  "        name: 'count',",
  "        // What a person reads in the permission prompt and the run's timeline.",
  "        title: 'Count words',",
  '        description:',
  "          'Counts the words of a text. Each Chinese, Japanese or Korean character counts as one word.',",
  '        // JSON Schema of the arguments: the app checks them before the call.',
  '        inputSchema: {',
  "          type: 'object',",
  "          properties: { text: { type: 'string', maxLength: 100000 } },",
  "          required: ['text'],",
  '        },',
  '      },',
  '    ],',
  '  }));',
  '',
  '  server.setRequestHandler(CallToolRequestSchema, async (request) => {',
  "    const text = String(request.params.arguments?.text ?? '');",
  '    const characters =',
  '      text.match(/[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]/gu) ?? [];',
  '    const words =',
  '      text',
  "        .replace(/[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]/gu, ' ')",
  "        .match(/[\\p{L}\\p{N}]+(?:['’-][\\p{L}\\p{N}]+)*/gu) ?? [];",
  '    const total = characters.length + words.length;',
  "    return { content: [{ type: 'text', text: `${total} words` }] };",
  '  });',
  '',
  '  return server;',
  '}',
].join('\n');

/** The example plugin's files as a user would unpack them: a folder with plugin.yaml at its top. */
export const EXAMPLE_PLUGIN_FILES: Readonly<Record<string, string>> = {
  'plugin.yaml': `${MANIFEST}\n`,
  'server.js': `${SERVER}\n`,
};

export const EXAMPLE_PLUGIN_FILE_NAME = 'notesagent-example-plugin.zip';

/**
 * The example plugin as a package the app installs as it is (Settings → Plugins
 * offers it to download): its files under one folder, as users zip a plugin.
 */
export function examplePluginZip(): Uint8Array {
  const folder: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(EXAMPLE_PLUGIN_FILES)) folder[name] = strToU8(text);
  // A fixed time keeps the download the same bytes every time.
  return zipSync({ 'example-word-count': folder }, { mtime: new Date(1980, 0, 1) });
}
