export * from './object-store';
export * from './local-object-store';
export * from './s3-object-store';
export * from './settings';
