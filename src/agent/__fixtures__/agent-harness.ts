import { z } from 'zod';
import type { EventEnvelope } from '../../contracts';
import { EventLog } from '../../core/event-log';
import { MemoryEventStore } from '../../core/event-store';
import { MetonaRiskLevel, MetonaToolCategory } from '../../ir';
import { AgentLoop } from '../loop-engine';
import { MemoryItemStore } from '../memory';
import {
  MemoryGrantStore,
  PermissionGate,
  type PermissionDecision,
  type PermissionPrompt,
  type PermissionRequest,
} from '../permissions';
import { SecretRedactor } from '../redaction';
import { ToolRegistry, defineTool, type AgentToolSpec } from '../tool-registry';
import { createBuiltInTools } from '../tools';
import { InMemoryNotes, InMemorySearch } from './in-memory-ports';
import { MemoryArtifactStore } from '../trace';
import { sequentialIds } from './scripted-adapter';

/** Answers permission prompts from a list (then `deny`), remembering what was asked. */
export class ScriptedPrompt implements PermissionPrompt {
  readonly requests: PermissionRequest[] = [];
  readonly #decisions: PermissionDecision[];

  constructor(...decisions: PermissionDecision[]) {
    this.#decisions = decisions;
  }

  async ask(request: PermissionRequest): Promise<PermissionDecision> {
    this.requests.push(request);
    return this.#decisions.shift() ?? 'deny';
  }
}

export const DEADLOCK_NOTE = {
  title: 'Operating systems: deadlock',
  body: [
    '# Deadlock',
    '',
    'A deadlock needs four conditions: mutual exclusion, hold and wait, no preemption and circular wait.',
    '',
    "The banker's algorithm avoids deadlock by only granting requests that keep the system in a safe state.",
    '',
  ].join('\n'),
  folder: 'os',
  tags: ['os'],
};

/** Waits until aborted; `started` resolves when it begins. */
export function waitingTool(name: string, timeoutMs = 30_000) {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const tool = defineTool({
    name,
    description: 'Waits until it is aborted (tests).',
    parameters: z.object({}),
    category: MetonaToolCategory.CUSTOM,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs,
    execute: (_args, { signal }) =>
      new Promise((_resolve, reject) => {
        markStarted();
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  });
  return { tool, started };
}

export interface HarnessOptions {
  prompt?: PermissionPrompt;
  grants?: MemoryGrantStore;
  tools?: AgentToolSpec[];
  secrets?: string[];
}

export async function createHarness(options: HarnessOptions = {}) {
  const clock = () => Date.now();
  const notes = new InMemoryNotes({ newId: sequentialIds() });
  const seeded = await notes.create(DEADLOCK_NOTE);
  const search = new InMemorySearch(notes);
  const memory = new MemoryItemStore();
  const registry = new ToolRegistry().register(
    ...createBuiltInTools({ notes, search, memory, clock }),
    ...(options.tools ?? []),
  );
  const events = new EventLog(new MemoryEventStore());
  const artifacts = new MemoryArtifactStore();
  const grants = options.grants ?? new MemoryGrantStore();
  const redactor = new SecretRedactor(options.secrets ?? []);
  const permissions = new PermissionGate({ prompt: options.prompt, grants, redactor });
  const loop = new AgentLoop({ registry, events, permissions, memory, artifacts, redactor });
  return { notes, seeded, search, memory, registry, events, artifacts, grants, permissions, loop };
}

export async function allEvents(events: EventLog, runId: string): Promise<EventEnvelope[]> {
  return (await events.list(runId, 0, 10_000)).items;
}

export function names(envelopes: readonly EventEnvelope[]): string[] {
  return envelopes.map((envelope) => envelope.event);
}

export function dataOf<T = Record<string, unknown>>(envelopes: readonly EventEnvelope[], event: string): T[] {
  return envelopes.filter((envelope) => envelope.event === event).map((envelope) => envelope.data as T);
}
