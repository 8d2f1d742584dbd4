// `npm run companion`: the stdio MCP host the app pairs with (127.0.0.1 only).
// Configuration: a JSON file named by COMPANION_CONFIG (see companion.ts for
// its fields); APP_ENVIRONMENT=development allows commands that are not approved.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { companionConfigSchema, startCompanion } from './companion';

function loadConfig() {
  const path = process.env.COMPANION_CONFIG;
  const raw: unknown = path
    ? JSON.parse(readFileSync(path, 'utf8'))
    : { plugins_dir: join(tmpdir(), 'notes-agent-plugins') };
  const parsed = companionConfigSchema.safeParse(raw);
  if (!parsed.success) {
    console.error(
      `The companion configuration is not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
    process.exit(1);
  }
  const config = parsed.data;
  if (process.env.APP_ENVIRONMENT) config.environment = process.env.APP_ENVIRONMENT;
  if (process.env.COMPANION_PORT) config.port = Number(process.env.COMPANION_PORT);
  return config;
}

const companion = await startCompanion({ config: loadConfig() });
// The code goes to the terminal only: the app asks the user to type it once.
console.error(`NotesAgent companion on 127.0.0.1:${companion.port}. Pairing code: ${companion.pairingCode}`);
const stop = () => void companion.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
