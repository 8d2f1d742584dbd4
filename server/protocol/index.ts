export * from './error-codes';
export * from './ide-callbacks';
export * from './parse-frame';
export * from './replies';
export * from './requests';
