export * from './environment';
export * from './logging';
export * from './dev-secrets';
export * from './object-store';
export * from './shared-settings';
export * from './secret-strength';
export * from './metrics-server';
export * from './process-metrics';
