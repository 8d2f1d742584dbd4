// Metona IR v1.0: the only shapes AI traffic may take inside the app.
export * from './adapter';
export * from './context';
export * from './errors';
export * from './memory';
export * from './request';
export * from './response';
export * from './stream';
export * from './tool';
