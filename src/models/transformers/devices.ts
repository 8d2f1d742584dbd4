import { hasWebGpu } from '../webgpu';
import { configureEnvironment, type TransformersEnvLike, type TransformersSource } from './environment';

/** Where an ONNX model runs: WebGPU or WASM in browsers, onnxruntime-node's CPU back end in Node. */
export type TransformersDevice = 'webgpu' | 'wasm' | 'cpu';
/** `auto`: WebGPU when an adapter exists, else WASM; in Node, the CPU back end. */
export type TransformersDevicePreference = 'auto' | TransformersDevice;

/** What the device choice asks of the runtime, replaceable in tests. */
export interface RuntimeProbe {
  /** True when a WebGPU adapter can be had. */
  hasWebGpu(): Promise<boolean>;
  /** True in Node (tests, scripts): onnxruntime-node instead of WASM. */
  isNode(): boolean;
}

export function isNode(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

export const defaultRuntimeProbe: RuntimeProbe = { hasWebGpu: () => hasWebGpu(), isNode };

/** The back end without a GPU: onnxruntime-web's WASM in browsers, onnxruntime-node's CPU in Node. */
export function withoutGpu(probe: Pick<RuntimeProbe, 'isNode'> = defaultRuntimeProbe): TransformersDevice {
  return probe.isNode() ? 'cpu' : 'wasm';
}

/** The devices to try in order: WebGPU first when there is one, then the back end without a GPU. */
export async function candidateDevices(
  preference: TransformersDevicePreference,
  probe: RuntimeProbe = defaultRuntimeProbe,
): Promise<TransformersDevice[]> {
  if (preference !== 'auto') return [preference];
  if (probe.isNode()) return ['cpu'];
  return (await probe.hasWebGpu().catch(() => false)) ? ['webgpu', 'wasm'] : ['wasm'];
}

/** Which entry of a model's per-device dtype table applies (the CPU back end uses the WASM one). */
export function dtypeSlot(device: TransformersDevice): 'webgpu' | 'wasm' {
  return device === 'webgpu' ? 'webgpu' : 'wasm';
}

/**
 * The start of every load: the library (imported lazily by the caller), pointed
 * at the model source, and the devices to try. A library that cannot be
 * imported rejects with `runtimeError`'s error.
 */
export async function openRuntime<Library extends { env: unknown }>(
  importLibrary: () => Promise<Library>,
  source: TransformersSource,
  preference: TransformersDevicePreference,
  probe: RuntimeProbe,
  runtimeError: (error: unknown) => unknown,
): Promise<{ library: Library; devices: TransformersDevice[] }> {
  let library: Library;
  try {
    library = await importLibrary();
  } catch (error) {
    throw runtimeError(error);
  }
  configureEnvironment(library.env as TransformersEnvLike, source);
  return { library, devices: await candidateDevices(preference, probe) };
}

/**
 * Loads on the first device that works. A failure on WebGPU is tried again on
 * the next device only when `retryWithoutGpu` says the runtime, not the model,
 * failed (missing files, aborts and wrong shapes would fail there too).
 * `attempt` throws errors already mapped to the caller's contract.
 */
export async function loadOnFirstDevice<T>(
  devices: readonly TransformersDevice[],
  attempt: (device: TransformersDevice) => Promise<T>,
  retryWithoutGpu: (error: unknown) => boolean,
): Promise<T> {
  let lastError: unknown;
  for (const [index, device] of devices.entries()) {
    try {
      return await attempt(device);
    } catch (error) {
      lastError = error;
      const last = index === devices.length - 1;
      if (last || device !== 'webgpu' || !retryWithoutGpu(error)) throw error;
    }
  }
  throw lastError;
}
