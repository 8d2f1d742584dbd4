import { strToU8, zipSync } from 'fflate';

/** One tool of a test's worker plugin: `call` is the body of its async `tools/call` handler. */
export interface WorkerTool {
  name: string;
  title?: string;
  description: string;
  call: string;
}

/**
 * A `worker` plugin package built by the test, zipped as users ship it (everything under
 * `plugin/`): its tools take no arguments and answer as `call` says.
 */
export function workerPluginZip(plugin: {
  id: string;
  name: string;
  tools: WorkerTool[];
  toolTimeoutSeconds?: number;
}): Buffer {
  const manifest = [
    `id: ${plugin.id}`,
    `name: ${JSON.stringify(plugin.name)}`,
    'version: 0.1.0',
    'backend:',
    '  type: mcp',
    '  transport: worker',
    '  entry: server.js',
    ...(plugin.toolTimeoutSeconds === undefined
      ? []
      : [`  tool_timeout_seconds: ${plugin.toolTimeoutSeconds}`]),
    'contributes:',
    `  tools: [${plugin.tools.map((tool) => `${plugin.id}.${tool.name}`).join(', ')}]`,
    '',
  ].join('\n');
  const listed = plugin.tools.map(({ name, title, description }) => ({
    name,
    ...(title && { title }),
    description,
    inputSchema: { type: 'object', properties: {} },
  }));
  const handlers = plugin.tools
    .map((tool) => `    ${JSON.stringify(tool.name)}: async () => { ${tool.call} },`)
    .join('\n');
  const server = `export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: ${JSON.stringify(plugin.id)}, version: '0.1.0' }, { capabilities: { tools: {} } });
  const handlers = {
${handlers}
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: ${JSON.stringify(listed)} }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => handlers[request.params.name]());
  return server;
}
`;
  return Buffer.from(zipSync({ plugin: { 'plugin.yaml': strToU8(manifest), 'server.js': strToU8(server) } }));
}
