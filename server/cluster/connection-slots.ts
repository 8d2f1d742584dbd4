import type { Redis } from 'ioredis';

// §1.3's "5 connections per key" across instances: one sorted set per key,
// members `<instance>/<connection>`, scored by when they expire. Instances
// refresh their members on every heartbeat, so a dead instance's slots free
// up by themselves. Redis's own clock scores them: instances' clocks may differ.

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

const REFRESH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

type SlotCommands = Redis & {
  agentAcquireSlot(key: string, member: string, limit: number, ttlMs: number): Promise<number>;
  agentRefreshSlots(key: string, ttlMs: number, ...members: string[]): Promise<number>;
};

export class RedisConnectionSlots {
  readonly #redis: SlotCommands;
  readonly #prefix: string;
  readonly #ttlMs: number;
  /** What this instance holds, re-announced on every heartbeat. */
  readonly #held = new Map<string, Set<string>>();

  constructor(
    redis: Redis,
    options: { prefix: string; ttlMs: number },
    readonly limit: number,
  ) {
    redis.defineCommand('agentAcquireSlot', { numberOfKeys: 1, lua: ACQUIRE });
    redis.defineCommand('agentRefreshSlots', { numberOfKeys: 1, lua: REFRESH });
    this.#redis = redis as SlotCommands;
    this.#prefix = options.prefix;
    this.#ttlMs = options.ttlMs;
  }

  #key(keyHash: string): string {
    return `${this.#prefix}:conns:${keyHash}`;
  }

  /** Rejects when Redis cannot be reached: the caller refuses the connection. */
  async acquire(keyHash: string, member: string): Promise<boolean> {
    const granted = await this.#redis.agentAcquireSlot(this.#key(keyHash), member, this.limit, this.#ttlMs);
    if (granted !== 1) return false;
    let members = this.#held.get(keyHash);
    if (!members) this.#held.set(keyHash, (members = new Set()));
    members.add(member);
    return true;
  }

  release(keyHash: string, member: string): void {
    const members = this.#held.get(keyHash);
    members?.delete(member);
    if (members?.size === 0) this.#held.delete(keyHash);
    // Best effort: when Redis is away the slot expires on its own.
    this.#redis.zrem(this.#key(keyHash), member).catch(() => undefined);
  }

  /** Also puts the slots back after Redis lost its data (a restart without persistence). */
  async refresh(): Promise<void> {
    await Promise.all(
      [...this.#held].map(([keyHash, members]) =>
        this.#redis.agentRefreshSlots(this.#key(keyHash), this.#ttlMs, ...members),
      ),
    );
  }
}
