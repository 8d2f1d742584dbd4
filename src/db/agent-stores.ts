import type { Dexie } from 'dexie';
import type { ErrorCode } from '../contracts';
import { newId, systemClock, type Clock } from '../core/ids';
import type {
  ArtifactInput,
  ArtifactRef,
  ArtifactStore,
  GrantStore,
  MemoryQuery,
  MemoryStore,
  PermissionGrant,
  TraceArtifact,
} from '../agent';
import type { MetonaMemoryItem } from '../ir';

/**
 * The agent's tables. Trace events are not here: they live in the
 * shared `events` table under `resource_id = run_id` (written by the EventLog).
 * Added to the schema as one new migration with these stores; the typed
 * database class is left alone, so the repositories reach them by name.
 */
export const AGENT_STORES = {
  /** One row per run: the index the run list pages over. */
  agent_runs: '&run_id, job_id, status, created_at',
  /** Large tool arguments / results kept out of the events (§6.4). */
  agent_artifacts: '&artifact_id, run_id',
  /** "Always allow" answers, keyed by permission (`notes.write`). */
  agent_grants: '&permission',
  /** MetonaMemoryItems (episodic, semantic, working). */
  agent_memories: '&id, sessionId, type, createdAt',
} as const satisfies Record<string, string>;

export const AGENT_TABLES = {
  runs: 'agent_runs',
  artifacts: 'agent_artifacts',
  grants: 'agent_grants',
  memories: 'agent_memories',
} as const;

export type AgentRunRowStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** What the run list shows; the trace (events) is the full record. Never holds secrets. */
export interface AgentRunRow {
  run_id: string;
  job_id: string;
  status: AgentRunRowStatus;
  /** The first line of the (redacted) prompt. */
  title: string;
  provider_id: string;
  model: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The final answer (redacted), once completed. */
  output: string | null;
  error: { code: ErrorCode; message: string } | null;
  steps: number;
  tool_calls: number;
  total_tokens: number;
}

export class AgentRunRepository {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<AgentRunRow, string>(AGENT_TABLES.runs);
  }

  async put(row: AgentRunRow): Promise<void> {
    await this.#table.put(row);
  }

  get(runId: string): Promise<AgentRunRow | undefined> {
    return this.#table.get(runId);
  }

  /** Applies `patch` to a stored run; returns the new row (undefined when the run does not exist). */
  async update(runId: string, patch: Partial<Omit<AgentRunRow, 'run_id'>>): Promise<AgentRunRow | undefined> {
    return this.#db.transaction('rw', this.#table, async () => {
      const row = await this.#table.get(runId);
      if (!row) return undefined;
      const next = { ...row, ...patch };
      await this.#table.put(next);
      return next;
    });
  }

  /** Newest first. */
  async list(query: { limit: number; offset: number }): Promise<{ items: AgentRunRow[]; total: number }> {
    const total = await this.#table.count();
    const items = await this.#table
      .orderBy('created_at')
      .reverse()
      .offset(query.offset)
      .limit(query.limit)
      .toArray();
    return { items, total };
  }

  listByStatus(statuses: readonly AgentRunRowStatus[]): Promise<AgentRunRow[]> {
    return this.#table
      .where('status')
      .anyOf([...statuses])
      .toArray();
  }
}

/** Trace artifacts in IndexedDB. */
export class DexieArtifactStore implements ArtifactStore {
  readonly #db: Dexie;
  readonly #clock: Clock;

  constructor(db: Dexie, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
  }

  async put(artifact: ArtifactInput): Promise<ArtifactRef> {
    const ref: ArtifactRef = {
      artifact_id: newId('artifact'),
      size_bytes: new TextEncoder().encode(artifact.content).length,
      mime_type: artifact.mime_type,
    };
    const row: TraceArtifact = { ...artifact, ...ref, created_at: this.#clock() };
    await this.#db.table<TraceArtifact, string>(AGENT_TABLES.artifacts).put(row);
    return ref;
  }

  get(artifactId: string): Promise<TraceArtifact | undefined> {
    return this.#db.table<TraceArtifact, string>(AGENT_TABLES.artifacts).get(artifactId);
  }

  listByRun(runId: string): Promise<TraceArtifact[]> {
    return this.#db
      .table<TraceArtifact, string>(AGENT_TABLES.artifacts)
      .where('run_id')
      .equals(runId)
      .toArray();
  }
}

/** Persisted "always allow" grants, revocable from settings. */
export class DexieGrantStore implements GrantStore {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<PermissionGrant, string>(AGENT_TABLES.grants);
  }

  get(permission: string): Promise<PermissionGrant | undefined> {
    return this.#table.get(permission);
  }

  async put(grant: PermissionGrant): Promise<void> {
    await this.#table.put(grant);
  }

  async delete(permission: string): Promise<boolean> {
    return this.#db.transaction('rw', this.#table, async () => {
      const existed = (await this.#table.get(permission)) !== undefined;
      await this.#table.delete(permission);
      return existed;
    });
  }

  async list(): Promise<PermissionGrant[]> {
    return (await this.#table.toArray()).sort((a, b) => a.permission.localeCompare(b.permission));
  }
}

/** Agent memory items in IndexedDB; the user views and deletes them. */
export class DexieMemoryStore implements MemoryStore {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<MetonaMemoryItem, string>(AGENT_TABLES.memories);
  }

  async put(item: MetonaMemoryItem): Promise<void> {
    await this.#table.put({ ...item });
  }

  get(id: string): Promise<MetonaMemoryItem | undefined> {
    return this.#table.get(id);
  }

  /** Newest first. */
  async list(query: MemoryQuery = {}): Promise<MetonaMemoryItem[]> {
    const items =
      query.sessionId !== undefined
        ? await this.#table.where('sessionId').equals(query.sessionId).toArray()
        : await this.#table.toArray();
    return items
      .filter((item) => query.type === undefined || item.type === query.type)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async delete(id: string): Promise<boolean> {
    return this.#db.transaction('rw', this.#table, async () => {
      const existed = (await this.#table.get(id)) !== undefined;
      await this.#table.delete(id);
      return existed;
    });
  }
}
