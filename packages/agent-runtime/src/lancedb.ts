// LanceDB, loaded after its log level is set (imports run in order).
import './lancedb-log';

export * from '@lancedb/lancedb';
