/**
 * BullMQ queue names shared by the gateway (producer) and the builder-worker (consumer).
 * Queue names are persisted in Redis as key prefixes: renaming one strands every job already
 * waiting under the old name. Add new names, never rename existing ones.
 */
export const BUILDS_QUEUE = 'builds' as const;
