import { Parser as MySqlParser } from 'node-sql-parser/build/mysql';
import { Parser as PostgresParser } from 'node-sql-parser/build/postgresql';
import { Parser as SqliteParser } from 'node-sql-parser/build/sqlite';
import { ALLOWED_SQL_FUNCTIONS, NOT_CALLS } from './sql-functions';
import type { SqlDialect } from './sql-dialect';
import { lexSql, type SqlToken } from './sql-lexer';

/** The model's SQL was not run; the message says why, for the person asking. */
export class SqlRefusedError extends Error {
  constructor(
    message: string,
    /** The statement as checked (fences and trailing semicolons removed), to show it. */
    readonly sql: string,
  ) {
    super(message);
    this.name = 'SqlRefusedError';
  }
}

const DIALECTS = {
  sqlite: { label: 'SQLite', database: 'Sqlite', parser: SqliteParser },
  postgresql: { label: 'PostgreSQL', database: 'PostgresQL', parser: PostgresParser },
  mysql: { label: 'MySQL', database: 'MySQL', parser: MySqlParser },
} as const;

/** Statement kinds in node-sql-parser's tree that write, change settings, or leave the query. */
const NOT_READ_ONLY = new Set([
  'insert',
  'replace',
  'update',
  'delete',
  'merge',
  'create',
  'drop',
  'alter',
  'truncate',
  'rename',
  'grant',
  'revoke',
  'set',
  'use',
  'lock',
  'unlock',
  'call',
  'exec',
  'execute',
  'transaction',
  'attach',
  'detach',
  'load_data',
  'declare',
  'prepare',
  'deallocate',
  'copy',
  'vacuum',
  'analyze',
  'explain',
  'show',
  'desc',
  'comment',
]);

/** Words that start a write; followed by "(" they are functions (REPLACE(), MySQL's INSERT()). */
const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'REPLACE', 'UPSERT']);

const ONLY_SELECT = 'Only a single read-only SELECT is allowed';

/** Words that begin a SQL statement; a text beginning with another word is not SQL at all. */
const STATEMENT_WORDS = new Set([
  ...WRITE_WORDS,
  ...['ALTER', 'ANALYZE', 'ATTACH', 'BEGIN', 'CALL', 'COMMIT', 'COPY', 'CREATE', 'DECLARE'],
  ...['DESCRIBE', 'DETACH', 'DO', 'DROP', 'EXEC', 'EXECUTE', 'EXPLAIN', 'GRANT', 'HANDLER'],
  ...['LOAD', 'LOCK', 'PRAGMA', 'RENAME', 'REVOKE', 'ROLLBACK', 'SAVEPOINT', 'SET', 'SHOW'],
  ...['TABLE', 'TRUNCATE', 'USE', 'VACUUM', 'VALUES'],
]);

/**
 * Checks SQL a model wrote before anything runs it, and returns the SQL to run: exactly one
 * read-only SELECT (WITH … SELECT and UNION included) whose row count is capped at `rowLimit`.
 *
 * node-sql-parser judges the statement; a small lexer (see sql-lexer.ts) finds what its tree does
 * not show reliably. The SQL that runs is the model's own text with only the LIMIT added or
 * lowered: the parser's sqlify() re-quotes identifiers, which changes their meaning in PostgreSQL
 * (`FROM Sales` folds to sales, `FROM "Sales"` does not). The engines add their own walls —
 * read-only transactions, a statement timeout, one statement per call — so the guard is the first
 * line, not the only one.
 */
export function guardSelect(sql: string, dialect: SqlDialect, o: { rowLimit: number }): string {
  if (!Number.isInteger(o.rowLimit) || o.rowLimit < 1) {
    throw new RangeError('rowLimit must be a positive whole number.');
  }
  const text = withoutFences(sql);
  const all = lexSql(text, dialect);
  const code = all.filter((token) => token.kind !== 'comment');
  while (code.at(-1)?.text === ';') code.pop();
  const last = code.at(-1);
  // Trailing semicolons and comments go: an appended LIMIT must not land after a "-- note".
  const statement = last ? text.slice(0, last.end) : '';
  const refuse = (reason: string) => new SqlRefusedError(reason, statement);
  if (!last) throw refuse('The model wrote no SQL.');

  const statements = splitStatements(code);
  if (statements.length > 1) {
    const kinds = statements.map((tokens) => leadWord(tokens) ?? '?').join(', ');
    throw refuse(`${ONLY_SELECT}; the model wrote ${statements.length} statements (${kinds}).`);
  }
  const lead = leadWord(code);
  if (lead !== 'SELECT' && lead !== 'WITH') {
    // Prose ("Stand by, …", "Sure, …") is not "a STAND statement": say what happened.
    if (!lead || !STATEMENT_WORDS.has(lead)) {
      throw refuse('The model answered in words instead of writing a SQL query. Ask again.');
    }
    throw refuse(`${ONLY_SELECT}; the model wrote ${article(lead)} statement.`);
  }
  if (dialect === 'mysql' && all.some((token) => token.text.startsWith('/*!'))) {
    throw refuse(
      `${ONLY_SELECT}; MySQL runs the text inside /*! … */ comments, and the model wrote one.`,
    );
  }
  // @@version, @@hostname, @@datadir…: the server's settings and identity, like version().
  const systemVariable = code.findIndex(
    (token, index) =>
      token.text === '@' && code[index + 1]?.text === '@' && code[index + 1]?.start === token.end,
  );
  if (systemVariable !== -1) {
    throw refuse(
      `${ONLY_SELECT} over the data; the model's query reads a server variable ` +
        `(@@${code[systemVariable + 2]?.text ?? ''}).`,
    );
  }
  const lock = lockingClause(code);
  if (lock) throw refuse(`${ONLY_SELECT}; the model's query locks rows (${lock}).`);
  // INSERT INTO / MERGE INTO are writes the checks below name; any other INTO stores a result.
  const storesResult = code.some(
    (token, index) => isWord(token, 'INTO') && !WRITE_WORDS.has(wordAt(code, index - 1)),
  );
  if (storesResult) {
    throw refuse(`${ONLY_SELECT}; the model's SELECT … INTO would store its result.`);
  }

  const { label, database, parser } = DIALECTS[dialect];
  let tree: unknown;
  try {
    tree = new parser().astify(statement, { database });
  } catch (error) {
    // The parser knows no data-modifying WITH (PostgreSQL's DELETE … RETURNING): say what it is.
    const write = code.findIndex(
      (_, index) => WRITE_WORDS.has(wordAt(code, index)) && code[index + 1]?.text !== '(',
    );
    if (write !== -1) {
      throw refuse(`${ONLY_SELECT}; the model's query contains ${article(wordAt(code, write))}.`);
    }
    throw refuse(
      `The query could not be checked, so it was not run: it is not valid ${label}${where(error)}.`,
    );
  }
  const trees = Array.isArray(tree) ? tree : [tree];
  const top = trees[0] as { type?: unknown } | undefined;
  const kind = typeof top?.type === 'string' ? top.type.toUpperCase() : 'UNKNOWN';
  if (trees.length !== 1 || kind !== 'SELECT') {
    throw refuse(`${ONLY_SELECT}; the model wrote ${article(kind)} statement.`);
  }
  const inner = forbiddenNode(top);
  if (inner) throw refuse(`${ONLY_SELECT}; the model's query contains ${inner}.`);
  const call = forbiddenCall(code, dialect);
  if (call) {
    throw refuse(
      `The query calls ${call}(), which previews do not run: only aggregate, text, date, math and conditional functions are allowed.`,
    );
  }

  return withRowLimit(statement, code, o.rowLimit, refuse);
}

/** Models like to wrap SQL in ```sql fences, sometimes with nothing closing them. */
function withoutFences(text: string): string {
  const start = text.indexOf('```');
  if (start === -1) return text.trim();
  // A language tag counts only when a line break follows it: "```SELECT 1```" has none.
  const body = text.slice(start + 3).replace(/^[\w-]*[^\S\n]*\n/, '');
  const end = body.indexOf('```');
  return (end === -1 ? body : body.slice(0, end)).trim();
}

function splitStatements(code: SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [[]];
  for (const token of code) {
    if (token.text === ';' && token.depth === 0) statements.push([]);
    else statements.at(-1)!.push(token);
  }
  return statements.filter((tokens) => tokens.length > 0);
}

function leadWord(tokens: SqlToken[]): string | undefined {
  // "(SELECT …) UNION (SELECT …)" starts with a parenthesis.
  return tokens.find((token) => token.kind === 'word')?.text.toUpperCase();
}

function wordAt(code: SqlToken[], index: number): string {
  const token = code[index];
  return token?.kind === 'word' ? token.text.toUpperCase() : '';
}

function isWord(token: SqlToken | undefined, word: string): boolean {
  return token?.kind === 'word' && token.text.toUpperCase() === word;
}

/**
 * The first function the query calls that is not on the dialect's allowlist (sql-functions.ts).
 * A call is a name followed by "(" — a plain word, or a quoted identifier ("pg_sleep"(1) is a
 * call in PostgreSQL and SQLite); a schema in front (pg_catalog.pg_sleep) does not change the
 * name. Not calls: keywords such as IN ( or OVER (, a name after AS (an alias's column list or
 * a sized type), and a CTE's column list (WITH t(a) AS (…)).
 */
function forbiddenCall(code: SqlToken[], dialect: SqlDialect): string | undefined {
  const allowed = ALLOWED_SQL_FUNCTIONS[dialect];
  for (let i = 0; i + 1 < code.length; i++) {
    const open = code[i + 1]!;
    if (open.text !== '(') continue;
    const name = calledName(code[i]!);
    if (name === undefined || allowed.has(name)) continue;
    if (code[i]!.kind === 'word' && NOT_CALLS.has(name)) continue;
    if (isWord(code[i - 1], 'AS')) continue;
    const close = code.findIndex(
      (token, at) => at > i + 1 && token.text === ')' && token.depth === open.depth,
    );
    const after = code[close + 1];
    const then = code[close + 2];
    if (
      isWord(after, 'AS') &&
      (then?.text === '(' || isWord(then, 'MATERIALIZED') || isWord(then, 'NOT'))
    ) {
      continue;
    }
    return name;
  }
  return undefined;
}

function calledName(token: SqlToken): string | undefined {
  if (token.kind === 'word') return token.text.toLowerCase();
  const quote = token.text[0];
  if (token.kind !== 'text' || !(quote === '"' || quote === '`' || quote === '[')) return undefined;
  const closing = quote === '[' ? ']' : quote;
  return token.text
    .slice(1, -1)
    .replaceAll(closing + closing, closing)
    .toLowerCase();
}

/** FOR UPDATE / FOR SHARE / FOR NO KEY UPDATE / FOR KEY SHARE, or MySQL's LOCK IN SHARE MODE. */
function lockingClause(code: SqlToken[]): string | undefined {
  for (let i = 0; i < code.length; i++) {
    const phrase = [0, 1, 2, 3].map((offset) => wordAt(code, i + offset)).join(' ');
    const clause = LOCKING_CLAUSES.find((words) => `${phrase} `.startsWith(`${words} `));
    if (clause) return clause;
  }
  return undefined;
}

const LOCKING_CLAUSES = [
  'FOR UPDATE',
  'FOR SHARE',
  'FOR NO KEY UPDATE',
  'FOR KEY SHARE',
  'LOCK IN SHARE MODE',
];

/** A statement inside the SELECT that is not one (a CTE's DELETE…), or a locking/INTO part. */
function forbiddenNode(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = forbiddenNode(item);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  if (typeof record.type === 'string' && NOT_READ_ONLY.has(record.type)) {
    return article(record.type.toUpperCase());
  }
  if (record.locking_read || record.for_update) return 'a locking clause';
  const into = record.into as { expr?: unknown } | undefined;
  if (record.type === 'select' && into?.expr) return 'SELECT … INTO';
  for (const value of Object.values(record)) {
    const found = forbiddenNode(value);
    if (found) return found;
  }
  return undefined;
}

/**
 * Caps the rows: the top-level LIMIT is lowered to rowLimit when larger (ALL counts as larger),
 * or one is appended. A LIMIT at depth 0 can only be the statement's own — a CTE's, a subquery's
 * or a parenthesised UNION member's sits inside parentheses.
 */
function withRowLimit(
  statement: string,
  code: SqlToken[],
  rowLimit: number,
  refuse: (reason: string) => SqlRefusedError,
): string {
  const at = code.findLastIndex((token) => token.depth === 0 && isWord(token, 'LIMIT'));
  if (at === -1) return `${statement}\nLIMIT ${rowLimit}`;
  const first = code[at + 1];
  // LIMIT offset, count (MySQL and SQLite) puts the count second.
  const count = code[at + 2]?.text === ',' ? code[at + 3] : first;
  if (count?.kind === 'word' && count.text.toUpperCase() === 'ALL') {
    return replaceToken(statement, count, String(rowLimit));
  }
  const value = count?.kind === 'number' ? Number(count.text) : NaN;
  if (!count || !Number.isInteger(value) || value < 0) {
    throw refuse(`The query's LIMIT must be a plain whole number so the preview can cap its rows.`);
  }
  return value > rowLimit ? replaceToken(statement, count, String(rowLimit)) : statement;
}

function replaceToken(text: string, token: SqlToken, replacement: string): string {
  return text.slice(0, token.start) + replacement + text.slice(token.end);
}

function where(error: unknown): string {
  const start = (error as { location?: { start?: { line?: number; column?: number } } }).location
    ?.start;
  return start?.line ? ` near line ${start.line}, column ${start.column}` : '';
}

function article(word: string): string {
  return `${/^[AEIOU]/.test(word) ? 'an' : 'a'} ${word}`;
}
