// Lists one tool whose input schema is broken: `minLength` must be a number.
export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: 'bad-schema', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'lookup',
        description: 'Looks a word up.',
        inputSchema: { type: 'object', properties: { word: { type: 'string', minLength: 'three' } } },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: 'never' }],
  }));
  return server;
}
