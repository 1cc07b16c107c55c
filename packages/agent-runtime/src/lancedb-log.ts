// LanceDB's native code logs at "warn" by default, including routine notes such as "No existing
// dataset at …, it will be created" for every new index. It reads LANCEDB_LOG once, when loaded:
// quiet it before it loads (lancedb.ts imports this first), unless the operator asked for more.
process.env.LANCEDB_LOG ??= 'error';
