/**
 * BullMQ queue names shared by the gateway (producer) and the builder-worker (consumer).
 * Queue names are persisted in Redis as key prefixes: renaming one strands every job already
 * waiting under the old name. Add new names, never rename existing ones.
 */
export const BUILDS_QUEUE = 'builds' as const;

/**
 * The knowledge queue: reading a source again (a scheduled or asked-for refresh) and indexing a
 * build made before builds indexed themselves. The builder worker consumes it; schedules are
 * BullMQ job schedulers on it, one per source.
 */
export const KNOWLEDGE_QUEUE = 'knowledge' as const;
