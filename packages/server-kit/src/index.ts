export * from './environment';
export * from './dev-secrets';
export * from './object-store';
export * from './shared-settings';
