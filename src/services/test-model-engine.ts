import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { HostedModelEngine } from './model-download';

/**
 * A temporary folder for a test file's generated model files: `write` fills
 * `models` before the file's tests, the whole `root` goes after them.
 */
export function generatedModelFolder(
  prefix: string,
  write: (models: string) => Promise<unknown>,
): { root: string; models: string } {
  const folder = { root: '', models: '' };
  beforeAll(async () => {
    folder.root = await mkdtemp(join(tmpdir(), prefix));
    folder.models = join(folder.root, 'models');
    await write(folder.models);
  });
  afterAll(async () => {
    await rm(folder.root, { recursive: true, force: true });
  });
  return folder;
}

/**
 * A model service's options for a test (its catalog `models` read from
 * `source`), over `engine` wrapped so the test sees each config it was asked to
 * load and how often it was stopped.
 */
export function recordedModelEngine<Config, Loaded, Model, Spec, Source>(
  engine: HostedModelEngine<Config, Loaded, Model>,
  models: Spec[],
  source: Source,
) {
  const configs: Config[] = [];
  let stops = 0;
  const recording: HostedModelEngine<Config, Loaded, Model> = {
    load: (config, options) => {
      configs.push(config);
      return engine.load(config, options);
    },
    restore: (config, loaded) => engine.restore(config, loaded),
    stop: () => {
      stops += 1;
      engine.stop();
    },
  };
  return {
    options: { engine: recording, models, source },
    configs,
    stops: () => stops,
  };
}

/**
 * `host` with its `load` method held: a load marks `started`, then waits until
 * `release()` before it runs (a download in flight, for as long as the test
 * wants); every other method is the host's own.
 */
export function gatedHost<Host extends object>(host: Host, load: keyof Host) {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const gated = new Proxy(host, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== load) return value.bind(target);
      return async (...args: unknown[]) => {
        markStarted();
        await gate;
        return value.apply(target, args);
      };
    },
  });
  return { host: gated, started, release: () => open() };
}
