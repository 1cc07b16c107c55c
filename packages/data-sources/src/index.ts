export * from './databases';
export { DataSourceAccess } from './data-source-access';
export type { CheckedDatabaseSource, DataSourceSettings } from './data-source-access';
export * from './web';
