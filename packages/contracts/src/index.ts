export * from './enums';
export * from './errors';
export * from './auth';
export * from './users';
export * from './api-keys';
export * from './health';
export * from './queues';
