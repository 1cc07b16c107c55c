export * from './environment';
export * from './dev-secrets';
