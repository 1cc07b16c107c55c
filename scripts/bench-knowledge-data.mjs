// Data for npm run bench:knowledge: a PDF, and tables made by Postgres itself in a database of
// their own (reached by the product through a TCP forwarder: the platform's own Postgres address
// is refused as a source).
import { knowledgePaths } from '@agentloom/contracts';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** The source tables' database (BENCH_SOURCE_DB: another name, for two runs on one server). */
export const SOURCE_DB = process.env.BENCH_SOURCE_DB ?? 'agentloom_bench_knowledge_source';

/** A 5-page PDF whose every page names a fact only it holds. */
export async function fivePagePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 5; page += 1) {
    doc
      .addPage([500, 300])
      .drawText(`Catalogue page ${page}. The Zephyr-${page}0 lamp costs ${page * 11} euros.`, {
        x: 20,
        y: 150,
        size: 11,
        font,
      });
  }
  return doc.save();
}

/** A table of `rows` parts in the source database, made by Postgres itself. */
export async function makeTable(table, rows) {
  const client = new pg.Client({
    connectionString: `postgresql://postgres@127.0.0.1:5432/${SOURCE_DB}`,
  });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.query(
      `CREATE TABLE ${table} (id int PRIMARY KEY, name text NOT NULL, price numeric NOT NULL, note text)`,
    );
    await client.query(
      `INSERT INTO ${table} SELECT n, 'Part ' || n, n % 500 + 0.5, 'stocked in aisle ' || (n % 40) FROM generate_series(1, $1) AS n`,
      [rows],
    );
    await client.query(`ANALYZE ${table}`);
  } finally {
    await client.end();
  }
}

export async function sourceDatabase(sql) {
  const client = new pg.Client({
    connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function onSource(sql, values = []) {
  const client = new pg.Client({
    connectionString: `postgresql://postgres@127.0.0.1:5432/${SOURCE_DB}`,
  });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** Polls until `done()` answers something truthy (every 100 ms); its answer. */
export async function until(done, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await done();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The agent's sources once nothing is being read or built. */
export function settled(gateway, token, id, timeoutMs = 30 * 60_000) {
  return until(
    async () => {
      const knowledge = await gateway.call('GET', knowledgePaths.list(id), undefined, token);
      const busy =
        knowledge.building_build_id ||
        knowledge.sources.some((source) => ['waiting', 'indexing'].includes(source.status));
      return busy ? null : knowledge;
    },
    timeoutMs,
    'the knowledge change',
  );
}
