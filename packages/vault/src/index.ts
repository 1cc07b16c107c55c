export * from './vault';
export * from './dev-secrets';
