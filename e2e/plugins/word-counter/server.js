// A plugin tool with an MCP `title`: the name a person reads, beside the id `count`.
export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: 'word-counter', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'count',
        title: 'Count words',
        description: 'Counts the words of a text.',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', maxLength: 2000 } },
          required: ['text'],
        },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String(request.params.arguments?.text ?? '');
    const words = text.split(/\s+/).filter(Boolean).length;
    return { content: [{ type: 'text', text: `${words} words` }] };
  });
  return server;
}
