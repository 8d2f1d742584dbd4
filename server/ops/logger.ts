// Structured logs, one JSON object per line. Fields are primitives only, so a
// request body, a code snippet or a key object cannot be logged by accident;
// callers log ids, names, sizes and error codes.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createJsonLogger(options: {
  level: LogLevel | 'silent';
  write: (line: string) => void;
  now?: () => Date;
}): Logger {
  const now = options.now ?? (() => new Date());
  const log =
    (level: LogLevel) =>
    (event: string, fields: LogFields = {}) => {
      if (RANK[level] < RANK[options.level]) return;
      options.write(`${JSON.stringify({ time: now().toISOString(), level, event, ...fields })}\n`);
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = createJsonLogger({ level: 'silent', write: () => undefined });
