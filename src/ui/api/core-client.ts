import * as Comlink from 'comlink';
import '../../workers/transfer-handlers';
import type { EventEnvelope } from '../../contracts/events';
import type { CoreWorkerApi } from '../../workers/core.worker';
import { EventSubscriptions, type RemoteSubscribe } from './event-subscriptions';
import { canDecodeOnPage, createPageAudioDecoder } from './page-audio-decoder';
import { plainCalls } from './plain-calls';

export { isAppError, AppError } from '../../contracts/errors';

function startWorker(): Worker {
  return new Worker(new URL('../../workers/core.worker.ts', import.meta.url), {
    type: 'module',
    name: 'core',
  });
}

// Started on the first call, not when this module loads: the worker's script is
// the largest download of a first visit, and the shell paints without it.
let worker: Worker | undefined;
let remote: Comlink.Remote<CoreWorkerApi> | undefined;

function connect(): Comlink.Remote<CoreWorkerApi> {
  if (remote) return remote;
  worker = startWorker();
  const started = Comlink.wrap<CoreWorkerApi>(worker);
  remote = started;
  registerPageDecoder(started);
  registerPageRenderer(started);
  return started;
}

/**
 * Exports draw Mermaid diagrams with the page's Mermaid (it needs a DOM), and
 * diagrams and plots as PNG with the page's canvas. The renderer and Mermaid load
 * on the first diagram, never with the shell.
 */
function registerPageRenderer(target: Comlink.Remote<CoreWorkerApi>): void {
  const port = {
    render: async (source: string, options: { theme: 'light' | 'dark' }) =>
      (await import('../markdown/mermaid-blocks')).renderMermaidStatic(source, options),
    // PDF and DOCX take diagrams and plots as PNG; workers cannot decode SVG.
    rasterize: async (svg: string, size: { width: number; height: number; scale: number }) =>
      (await import('../markdown/svg-raster')).rasterizeSvg(svg, size),
  };
  void target.exports
    .registerPageRenderer(Comlink.proxy(port))
    .catch((error: unknown) => console.error('diagram renderer registration failed', error));
}

/** Transcriptions of compressed audio need the page's Web Audio decoder (workers have none). */
function registerPageDecoder(target: Comlink.Remote<CoreWorkerApi>): void {
  if (!canDecodeOnPage()) return;
  void target.transcriptions
    .registerPageDecoder(Comlink.proxy(createPageAudioDecoder()))
    .catch((error: unknown) => console.error('audio decoder registration failed', error));
}

const remoteSubscribe = (current?: Comlink.Remote<CoreWorkerApi>): RemoteSubscribe => {
  return async (resourceId, afterSequence, onEvent) =>
    (current ?? connect()).events.subscribe(resourceId, afterSequence, Comlink.proxy(onEvent));
};

const subscriptions = new EventSubscriptions(remoteSubscribe());

/**
 * The core worker's services. `core.notes.create(...)` points at the live
 * worker even after `restartCore()` replaced it, and sends plain data: a
 * Svelte `$state` value passed as it is arrives as a plain copy.
 */
export const core = plainCalls(connect);

/** Replays, dedupes and ends after the terminal event; returns unsubscribe. */
export function subscribeEvents(resourceId: string, onEvent: (envelope: EventEnvelope) => void): () => void {
  return subscriptions.subscribe(resourceId, onEvent);
}

export const subscribeJob = subscribeEvents;

let changeSource: Promise<string | null> | undefined;

/**
 * The name the live core's change messages carry (null when it could not say), so the page
 * can tell its own writes from other tabs'. Asked again after `restartCore()`: the new worker
 * picks a name of its own.
 */
export function ownChangeSource(): Promise<string | null> {
  changeSource ??= core.changeSource().catch(() => null);
  return changeSource;
}

/** Browsers may kill a worker; a new one picks up where the subscriptions stopped. */
export function restartCore(): void {
  worker?.terminate();
  remote = undefined;
  changeSource = undefined;
  subscriptions.reconnect(remoteSubscribe(connect()));
}
