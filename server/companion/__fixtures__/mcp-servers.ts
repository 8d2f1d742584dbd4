import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scripted MCP server of these tests, and the tools it lists. */
export const FAKE_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fake-mcp-server.mjs');
export const FAKE_TOOLS = ['echo', 'slow', 'crash', 'big', 'fail', 'env', 'garbage', 'oversized', 'announce'];

/** The MCP project's reference server, run over stdio or Streamable HTTP. */
export const EVERYTHING_SERVER = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
export const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  // Registered once the client is initialized (it needs no client capability).
  'simulate-research-query',
];
