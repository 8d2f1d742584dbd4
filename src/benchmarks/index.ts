export * from './builtin';
export * from './dataset';
export * from './metrics';
export * from './report';
