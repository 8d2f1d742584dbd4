export * from './agent-score';
export * from './builtin';
export * from './dataset';
export * from './isolated-index';
export * from './metrics';
export * from './rag-run';
export * from './report';
export * from './runs';
