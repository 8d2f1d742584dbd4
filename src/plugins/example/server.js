// The plugin's MCP server. The app imports this module in a worker and calls its default
// export with the MCP SDK (it cannot import packages itself): { Server, McpServer,
// ListToolsRequestSchema, CallToolRequestSchema }. Return the server; the app connects it.
export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server(
    { name: 'example-word-count', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'count',
        // What a person reads in the permission prompt and the run's timeline.
        title: 'Count words',
        description:
          'Counts the words of a text. Each Chinese, Japanese or Korean character counts as one word.',
        // JSON Schema of the arguments: the app checks them before the call.
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', maxLength: 100000 } },
          required: ['text'],
        },
      },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String(request.params.arguments?.text ?? '');
    const characters =
      text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? [];
    const words =
      text
        .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu, ' ')
        .match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
    const total = characters.length + words.length;
    return { content: [{ type: 'text', text: `${total} words` }] };
  });

  return server;
}
