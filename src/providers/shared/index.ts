// What every provider folder shares: wire-neutral parsing, error mapping and the
// stream driver. No provider's wire types live here.
export * from './errors';
export * from './http';
export * from './line-decoder';
export * from './messages';
export * from './ndjson';
export * from './sleep';
export * from './sse';
export * from './stream-accumulator';
export * from './stream-driver';
export * from './stream-parts';
export * from './tool-call-assembler';
export * from './tool-names';
