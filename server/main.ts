// `tsx server/main.ts` (npm run agent-server): the IDE agent service.
// Configuration: see config.ts and README.md.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey, loadConfig, type AgentServerConfig } from './config';
import { createModelRegistry } from './models/create-registry';
import { createJsonLogger, type Logger } from './ops/logger';
import { AgentServer } from './transport/agent-server';

function loadOrExit(): AgentServerConfig {
  try {
    return loadConfig({ env: process.env, readFile: (path) => readFileSync(path, 'utf8') });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

/**
 * A fresh machine has no keys configured. Rather than run open, this run gets
 * a random key, written to a file only the user can read (and shown on a
 * terminal), never to the structured log.
 */
function addTemporaryKey(config: AgentServerConfig, logger: Logger): void {
  const key = `agent_${randomBytes(18).toString('base64url')}`;
  const path = join(tmpdir(), `notes-agent-server-key-${process.pid}.txt`);
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  process.on('exit', () => rmSync(path, { force: true }));
  config.apiKeys.push({ name: 'temporary', sha256: hashApiKey(key) });
  logger.warn('temporary_api_key', { key_file: path, hint: 'set AGENT_SERVER_API_KEYS to choose keys' });
  if (process.stderr.isTTY) console.error(`No API keys configured. Temporary key for this run: ${key}`);
}

async function main(): Promise<void> {
  const config = loadOrExit();
  const logger = createJsonLogger({ level: config.logLevel, write: (line) => process.stdout.write(line) });
  if (config.apiKeys.length === 0) addTemporaryKey(config, logger);
  const server = new AgentServer({ config, registry: createModelRegistry(config, process.env), logger });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn('shutdown_forced', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('signal_received', { signal });
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('uncaughtException', (error) => {
    logger.error('uncaught_exception', { error: error.name, message: error.message });
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled_rejection', { error: reason instanceof Error ? reason.name : typeof reason });
    process.exit(1);
  });

  try {
    await server.listen();
  } catch (error) {
    logger.error('listen_failed', { error: (error as Error).message });
    process.exit(1);
  }
}

void main();
