import type { SqlDialect } from './sql-dialect';
import { guardSelect, SqlRefusedError } from './sql-guard';

const DIALECTS: SqlDialect[] = ['sqlite', 'postgresql', 'mysql'];
const limit = { rowLimit: 100 };

function refusal(sql: string, dialect: SqlDialect): SqlRefusedError {
  try {
    guardSelect(sql, dialect, limit);
  } catch (error) {
    if (error instanceof SqlRefusedError) return error;
    throw error;
  }
  throw new Error(`guardSelect accepted: ${sql}`);
}

describe('guardSelect accepts one read-only SELECT', () => {
  it.each(DIALECTS)('adds a LIMIT when there is none (%s)', (dialect) => {
    expect(guardSelect('SELECT COUNT(*) FROM people', dialect, limit)).toBe(
      'SELECT COUNT(*) FROM people\nLIMIT 100',
    );
  });

  it.each(DIALECTS)('lowers a larger LIMIT and keeps a smaller one (%s)', (dialect) => {
    expect(guardSelect('SELECT name FROM people LIMIT 500', dialect, limit)).toBe(
      'SELECT name FROM people LIMIT 100',
    );
    expect(guardSelect('SELECT name FROM people LIMIT 5', dialect, limit)).toBe(
      'SELECT name FROM people LIMIT 5',
    );
    expect(guardSelect('SELECT name FROM people LIMIT 500 OFFSET 20', dialect, limit)).toBe(
      'SELECT name FROM people LIMIT 100 OFFSET 20',
    );
  });

  it.each(['mysql', 'sqlite'] as const)(
    'lowers the count of LIMIT offset, count (%s)',
    (dialect) => {
      expect(guardSelect('SELECT name FROM people LIMIT 20, 500', dialect, limit)).toBe(
        'SELECT name FROM people LIMIT 20, 100',
      );
    },
  );

  it('treats PostgreSQL LIMIT ALL as larger than the limit', () => {
    expect(guardSelect('SELECT name FROM people LIMIT ALL', 'postgresql', limit)).toBe(
      'SELECT name FROM people LIMIT 100',
    );
  });

  it.each(DIALECTS)(
    'accepts WITH … SELECT; a LIMIT inside the CTE is not the statement’s (%s)',
    (dialect) => {
      const sql =
        'WITH young AS (SELECT name FROM people WHERE age < 30 LIMIT 1000) SELECT name FROM young';
      expect(guardSelect(sql, dialect, limit)).toBe(`${sql}\nLIMIT 100`);
    },
  );

  it.each(DIALECTS)('accepts UNION and caps the whole result (%s)', (dialect) => {
    expect(
      guardSelect(
        'SELECT name FROM people UNION SELECT city FROM people LIMIT 1000',
        dialect,
        limit,
      ),
    ).toBe('SELECT name FROM people UNION SELECT city FROM people LIMIT 100');
    expect(
      guardSelect('SELECT name FROM people UNION ALL SELECT city FROM people', dialect, limit),
    ).toBe('SELECT name FROM people UNION ALL SELECT city FROM people\nLIMIT 100');
  });

  it('strips ```sql fences, a trailing semicolon and a trailing comment', () => {
    expect(
      guardSelect(
        'Here you go:\n```sql\nSELECT name FROM people; -- all of them\n```',
        'sqlite',
        limit,
      ),
    ).toBe('SELECT name FROM people\nLIMIT 100');
    expect(guardSelect('```SELECT 1```', 'postgresql', limit)).toBe('SELECT 1\nLIMIT 100');
  });

  it('ignores LIMIT and keywords inside strings and comments', () => {
    const sql = "SELECT 'LIMIT 5; DROP TABLE people' AS note /* LIMIT 1 */ FROM people";
    expect(guardSelect(sql, 'postgresql', limit)).toBe(`${sql}\nLIMIT 100`);
  });

  it('keeps identifiers as the model wrote them (no re-quoting)', () => {
    expect(
      guardSelect('SELECT Name AS Total FROM People ORDER BY Total', 'postgresql', limit),
    ).toBe('SELECT Name AS Total FROM People ORDER BY Total\nLIMIT 100');
  });
});

describe('guardSelect refuses anything else, saying why', () => {
  it.each(DIALECTS)('says in plain words when the model wrote prose, not SQL (%s)', (dialect) => {
    expect(refusal('Stand by, I will look at the orders table first.', dialect).message).toBe(
      'The model answered in words instead of writing a SQL query. Ask again.',
    );
    expect(refusal('Sure! Here is what I found.', dialect).message).not.toMatch(/statement/);
  });

  it.each(DIALECTS)('refuses DROP, UPDATE, DELETE and INSERT (%s)', (dialect) => {
    expect(refusal('DROP TABLE people', dialect).message).toBe(
      'Only a single read-only SELECT is allowed; the model wrote a DROP statement.',
    );
    expect(refusal("UPDATE people SET name = 'x'", dialect).message).toBe(
      'Only a single read-only SELECT is allowed; the model wrote an UPDATE statement.',
    );
    expect(refusal('DELETE FROM people', dialect).message).toMatch(/wrote a DELETE statement/);
    expect(refusal("INSERT INTO people (name) VALUES ('x')", dialect).message).toMatch(
      /wrote an INSERT statement/,
    );
  });

  it.each(DIALECTS)('refuses a second statement after a SELECT (%s)', (dialect) => {
    const error = refusal('SELECT 1; DELETE FROM people', dialect);
    expect(error.message).toBe(
      'Only a single read-only SELECT is allowed; the model wrote 2 statements (SELECT, DELETE).',
    );
    expect(error.sql).toBe('SELECT 1; DELETE FROM people');
  });

  it('refuses a CTE that writes (PostgreSQL)', () => {
    expect(
      refusal('WITH gone AS (DELETE FROM people RETURNING id) SELECT * FROM gone', 'postgresql')
        .message,
    ).toMatch(/contains a DELETE/);
    expect(
      refusal(
        "WITH added AS (INSERT INTO people (name) VALUES ('x') RETURNING name) SELECT name FROM added",
        'postgresql',
      ).message,
    ).toMatch(/contains an INSERT/);
    expect(
      refusal(
        'WITH changed AS (UPDATE people SET age = 1 RETURNING age) SELECT age FROM changed',
        'postgresql',
      ).message,
    ).toMatch(/contains an UPDATE/);
  });

  it('refuses a statement that only starts like a query (PostgreSQL WITH … DELETE)', () => {
    expect(refusal('WITH x AS (SELECT 1) DELETE FROM people', 'postgresql').message).toBe(
      "Only a single read-only SELECT is allowed; the model's query contains a DELETE.",
    );
  });

  it.each(DIALECTS)('refuses SELECT … INTO (%s)', (dialect) => {
    expect(refusal('SELECT * INTO copy_of_people FROM people', dialect).message).toMatch(/INTO/);
  });

  it('refuses MySQL INTO OUTFILE wherever it is written', () => {
    expect(refusal("SELECT * FROM people INTO OUTFILE '/tmp/people.txt'", 'mysql').message).toMatch(
      /INTO/,
    );
  });

  it.each(DIALECTS)('refuses locking clauses (%s)', (dialect) => {
    expect(refusal('SELECT * FROM people FOR UPDATE', dialect).message).toBe(
      "Only a single read-only SELECT is allowed; the model's query locks rows (FOR UPDATE).",
    );
  });

  it('refuses FOR SHARE and LOCK IN SHARE MODE', () => {
    expect(refusal('SELECT * FROM people FOR NO KEY UPDATE', 'postgresql').message).toMatch(
      /\(FOR NO KEY UPDATE\)/,
    );
    expect(refusal('SELECT * FROM people FOR SHARE', 'postgresql').message).toMatch(
      /\(FOR SHARE\)/,
    );
    expect(refusal('SELECT * FROM people LOCK IN SHARE MODE', 'mysql').message).toMatch(
      /LOCK IN SHARE MODE/,
    );
  });

  it('refuses PRAGMA, ATTACH, SET and CALL', () => {
    expect(refusal('PRAGMA writable_schema = ON', 'sqlite').message).toMatch(/a PRAGMA statement/);
    expect(refusal("ATTACH DATABASE '/tmp/x.db' AS x", 'sqlite').message).toMatch(
      /an ATTACH statement/,
    );
    expect(refusal('SET statement_timeout = 0', 'postgresql').message).toMatch(/a SET statement/);
    expect(refusal('CALL reset_everything()', 'mysql').message).toMatch(/a CALL statement/);
  });

  it('refuses MySQL executable comments, which the server runs', () => {
    expect(refusal("SELECT 1 /*! INTO OUTFILE '/tmp/x' */", 'mysql').message).toMatch(/\/\*!/);
    expect(refusal('SELECT 1 /*!50000 , SLEEP(100) */', 'mysql').message).toMatch(/\/\*!/);
  });

  it('refuses what does not parse, and empty answers', () => {
    expect(refusal('SELECT FROM WHERE people', 'postgresql').message).toMatch(
      /^The query could not be checked, so it was not run: it is not valid PostgreSQL near line 1, column \d+\.$/,
    );
    expect(refusal('I could not find that table, sorry.', 'sqlite').message).toMatch(
      /answered in words instead of writing a SQL query/,
    );
    expect(refusal('```sql\n```', 'mysql').message).toBe('The model wrote no SQL.');
    expect(refusal(';', 'mysql').message).toBe('The model wrote no SQL.');
  });

  it('refuses a LIMIT it cannot cap', () => {
    expect(refusal('SELECT name FROM people LIMIT $1', 'postgresql').message).toMatch(
      /LIMIT must be a plain whole number/,
    );
  });
});
