// Reports what the plugin worker leaves visible to plugin code.
export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: 'storage-probe', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'probe', description: 'Lists visible APIs.', inputSchema: { type: 'object', properties: {} } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    const seen = {
      indexedDB: typeof indexedDB,
      caches: typeof caches,
      fetch: typeof fetch,
      WebSocket: typeof WebSocket,
      storage: typeof navigator.storage,
      document: typeof document,
    };
    return { content: [{ type: 'text', text: JSON.stringify(seen) }] };
  });
  return server;
}
