// LanceDB, loaded after its settings are (imports run in order).
import './lancedb-env';

export * from '@lancedb/lancedb';
