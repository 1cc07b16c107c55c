export * from './source-databases';
export * from './tcp-forwarder';
