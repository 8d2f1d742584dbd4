// The sample plugin's MCP server. It runs in the app's plugin worker, which
// hands in the MCP SDK: a plugin module cannot import packages itself.
export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: 'sample-greeter', version: '1.0.0' }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'greet',
        description: 'Greets a person by name.',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1, maxLength: 80 } },
          required: ['name'],
        },
      },
      {
        name: 'compose',
        description: 'Composes the greeting of the say-hello command.',
        inputSchema: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            _notesagent: {
              type: 'object',
              properties: { settings: { type: 'object' }, secrets: { type: 'object' } },
              required: ['settings'],
            },
          },
          required: ['_notesagent'],
        },
      },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (request.params.name === 'greet') {
      return { content: [{ type: 'text', text: `Hello, ${args.name}!` }] };
    }
    if (request.params.name === 'compose') {
      const { settings, secrets = {} } = args._notesagent;
      const marks = '!'.repeat(settings.excitement ?? 1);
      const keyNote = secrets.api_key ? ' (signed)' : '';
      const message = `${settings.greeting}, ${args.name ?? 'world'}${marks}${keyNote}`;
      const effect = { type: 'notification', payload: { level: 'success', message } };
      return { content: [{ type: 'text', text: message }], structuredContent: { effect } };
    }
    return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
  });

  return server;
}
