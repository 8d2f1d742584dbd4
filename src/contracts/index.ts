export * from './error-codes';
export * from './errors';
export * from './events';
export * from './jobs';
export * from './notes';
export * from './pages';
export * from './settings';
export * from './time';
