import { describe, expect, it, vi } from 'vitest';
import { LazyComponent } from './lazy-component.svelte';

/** A module load that settles when the test says so. */
function deferredModule<C>() {
  let settle!: { resolve: (value: { default: C }) => void; reject: (error: unknown) => void };
  const promise = new Promise<{ default: C }>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

describe('LazyComponent', () => {
  it('has no component until its code has loaded, then keeps it', async () => {
    const module = deferredModule<string>();
    const panel = new LazyComponent(() => module.promise);
    const loading = panel.load();
    expect(panel.current).toBeNull();
    module.resolve({ default: 'Panel' });
    await expect(loading).resolves.toBe('Panel');
    expect(panel.current).toBe('Panel');
  });

  it('downloads once, however often it is asked for', async () => {
    const load = vi.fn(() => Promise.resolve({ default: 'Panel' }));
    const panel = new LazyComponent(load);
    await Promise.all([panel.load(), panel.load()]);
    await panel.load();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed download', async () => {
    const load = vi
      .fn<() => Promise<{ default: string }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ default: 'Panel' });
    const panel = new LazyComponent(load);
    await expect(panel.load()).rejects.toThrow('offline');
    expect(panel.current).toBeNull();
    await expect(panel.load()).resolves.toBe('Panel');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('logs a failed preload instead of leaving a rejection unhandled', async () => {
    const error = new Error('offline');
    let spy: ReturnType<typeof vi.spyOn> | undefined;
    const logged = new Promise<unknown[]>((resolve) => {
      spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => resolve(args));
    });
    const panel = new LazyComponent<string>(() => Promise.reject(error));
    panel.preload();
    expect((await logged)[1]).toBe(error);
    expect(panel.current).toBeNull();
    spy?.mockRestore();
  });
});
