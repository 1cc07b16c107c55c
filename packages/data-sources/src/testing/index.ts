export * from './source-databases';
export * from './tcp-forwarder';
export * from './web-site';
