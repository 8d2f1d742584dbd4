// The agent core: ReAct loop, tools, permissions, context, memory and
// traces, as pure logic behind small ports. Persistence, the service and the UI
// plug in from outside.
export * from './agent-events';
export * from './context-builder';
export * from './loop-engine';
export * from './memory';
export * from './memory-extract';
export * from './permissions';
export * from './redaction';
export * from './token-estimate';
export * from './tool-params';
export * from './tool-registry';
export * from './tools';
export * from './trace';
