// Resident memory of the processes a bench started (Chromium's browser, renderer
// and GPU processes are children of this Node process), read from /proc. Used to
// give Chromium's page.pdf() a peak-memory figure beside our exporter's, since
// Chromium prints in its own processes. Linux only; elsewhere it reports nothing.
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces; the parent pid follows its closing ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function rssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Pids of every process below `root` (not `root` itself). */
export function descendantsOf(root = process.pid): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    found.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Summed RSS of this process's descendants, in MB (0 where /proc is absent). */
export function childTreeMb(): number {
  return descendantsOf().reduce((sum, pid) => sum + rssKb(pid), 0) / 1024;
}

/**
 * Runs `work` and returns the highest summed RSS of this process's descendants
 * above what they held just before, in MB. Sampled between event-loop turns
 * (Chromium works in its own processes, so this loop stays free to sample).
 */
export async function childTreePeakMb(work: () => Promise<unknown>): Promise<number> {
  const settled = childTreeMb();
  let peak = settled;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, childTreeMb());
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await sampling;
  }
  return Math.max(0, peak - settled);
}
