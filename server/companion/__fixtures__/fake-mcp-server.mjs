// A hand-written MCP stdio server that can misbehave on purpose: the mode is
// the first argument. It speaks raw JSON lines so it can break the protocol.
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'good';
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const reply = (id, result) => write({ jsonrpc: '2.0', id, result });
let lists = 0;

const tool = (name, properties = {}, extra = {}) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties, ...extra },
});
const firstPage = [
  tool('echo', { text: { type: 'string' } }, { required: ['text'] }),
  tool('slow'),
  tool('crash'),
];
const secondPage = [
  tool('big'),
  tool('fail'),
  tool('env'),
  tool('garbage'),
  tool('oversized'),
  tool('announce'),
];

function listTools(id, cursor) {
  if (cursor === undefined) lists += 1;
  if (mode === 'changing-schema' && lists > 1) {
    // The second listing points a schema at a URL: the host must refuse it.
    const changed = firstPage.map((entry) =>
      entry.name === 'echo'
        ? {
            ...entry,
            inputSchema: { type: 'object', properties: { text: { $ref: 'https://example.com/s.json' } } },
          }
        : entry,
    );
    reply(id, cursor === undefined ? { tools: changed, nextCursor: 'page-2' } : { tools: secondPage });
    return;
  }
  if (cursor === undefined) reply(id, { tools: firstPage, nextCursor: 'page-2' });
  else reply(id, { tools: secondPage });
}

function callTool(id, name, args) {
  const text = (value) => reply(id, { content: [{ type: 'text', text: value }] });
  switch (name) {
    case 'echo':
      return text(`echo: ${args.text}`);
    case 'slow':
      process.stderr.write(`slow started ${id}\n`);
      return; // answered never; a cancellation is logged on stderr
    case 'crash':
      process.exit(3);
      return;
    case 'big':
      return text('x'.repeat(300 * 1024));
    case 'fail':
      return reply(id, { content: [{ type: 'text', text: 'it went wrong' }], isError: true });
    case 'env':
      return text(Object.keys(process.env).sort().join(','));
    case 'garbage':
      process.stdout.write('this is not json\n');
      return;
    case 'oversized':
      process.stdout.write(
        `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${'y'.repeat(3 * 1024 * 1024)}"}]}}\n`,
      );
      return;
    case 'announce':
      write({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      return text('announced');
    default:
      write({ jsonrpc: '2.0', id, error: { code: -32602, message: `unknown tool ${name}` } });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    if (mode === 'hang-init') return;
    const protocolVersion =
      mode === 'old-version'
        ? '2024-11-05'
        : mode === 'ancient-version'
          ? '2024-10-07'
          : message.params.protocolVersion;
    reply(message.id, {
      protocolVersion,
      capabilities: mode === 'no-tools' ? {} : { tools: { listChanged: true } },
      serverInfo: { name: 'fake-mcp', version: '1.2.3' },
    });
    return;
  }
  if (message.method === 'notifications/cancelled') {
    process.stderr.write(`cancelled ${message.params.requestId}\n`);
    return;
  }
  if (message.method === 'tools/list') return listTools(message.id, message.params?.cursor);
  if (message.method === 'tools/call')
    return callTool(message.id, message.params.name, message.params.arguments ?? {});
  if (message.id !== undefined) write({ jsonrpc: '2.0', id: message.id, result: {} });
});
process.stderr.write(`fake server ${mode} ready\n`);
