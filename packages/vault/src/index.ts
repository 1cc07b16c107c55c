export * from './vault';
