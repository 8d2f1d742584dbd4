import * as Comlink from 'comlink';
import { AppError } from '../../contracts/errors';

/**
 * A deep copy in which every plain object and array is a fresh plain one, as
 * `$state.snapshot` makes: Svelte's `$state` values are Proxies, and a Proxy
 * cannot be structured-cloned. Everything else is kept as it is (typed
 * arrays, Blobs, Dates, Maps: structured clone copies them itself), and so
 * are Comlink proxies, which travel by their transfer handler.
 */
export function plainData<T>(value: T, copies = new Map<object, unknown>()): T {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known as T;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    value.forEach((item, index) => {
      copy[index] = plainData(item, copies);
    });
    return copy as T;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || Comlink.proxyMarker in value) return value;
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const key of Object.keys(value))
    copy[key] = plainData((value as Record<string, unknown>)[key], copies);
  return copy as T;
}

export function isDataCloneError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'DataCloneError'
  );
}

/**
 * Calls a remote method so that what reaches the worker is plain data. The
 * arguments go as they are first: most calls are plain already, and a
 * `Comlink.transfer` mark (kept by argument identity) must survive. A
 * DataCloneError is thrown by the page's `postMessage` before anything is
 * sent, so the call is then made once with plain copies; a clone failure
 * that remains (a function, a DOM node) is INVALID_REQUEST naming the method.
 */
export async function callWithPlainData<R>(
  method: string,
  call: (...args: unknown[]) => Promise<R> | R,
  args: readonly unknown[],
): Promise<R> {
  try {
    return await call(...args);
  } catch (error) {
    if (!isDataCloneError(error)) throw error;
  }
  try {
    return await call(...args.map((argument) => plainData(argument)));
  } catch (error) {
    if (!isDataCloneError(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      'INVALID_REQUEST',
      `${method} could not send its arguments to the core worker (${reason}); pass plain data, not functions, class instances or DOM objects.`,
      { method },
      { cause: error },
    );
  }
}

/**
 * The remote API with every method call going through `callWithPlainData`.
 * `resolve` is read on each access, so a held namespace (`core.notes`) keeps
 * following the live worker after a restart. Symbols and `then` pass through
 * untouched (Comlink's own keys, and awaiting a namespace stays as it was).
 */
export function plainCalls<T extends object>(resolve: () => T, name = 'core'): T {
  return guarded(resolve as () => unknown, name) as T;
}

function guarded(resolve: () => unknown, path: string): unknown {
  const member = (property: string) => () => (resolve() as Record<string, unknown>)[property];
  return new Proxy(function remoteMember() {}, {
    get(_target, property) {
      if (typeof property === 'symbol' || property === 'then') {
        return (resolve() as Record<PropertyKey, unknown>)[property];
      }
      return guarded(member(property), `${path}.${property}`);
    },
    apply(_target, _thisArg, args: unknown[]) {
      return callWithPlainData(path, resolve() as (...args: unknown[]) => unknown, args);
    },
  });
}
