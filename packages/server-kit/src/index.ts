export * from './environment';
export * from './dev-secrets';
export * from './shared-settings';
