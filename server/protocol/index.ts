export * from './error-codes';
export * from './ide-callbacks';
export * from './parse-frame';
export * from './replies';
export * from './request-id';
export * from './requests';
