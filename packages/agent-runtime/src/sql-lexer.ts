import type { SqlDialect } from './sql-dialect';

export interface SqlToken {
  /** `text` is a quoted string or quoted identifier; `param` a placeholder such as $1. */
  kind: 'word' | 'number' | 'text' | 'param' | 'comment' | 'symbol';
  text: string;
  start: number;
  end: number;
  /** Parentheses around the token: 0 is the statement's own level. */
  depth: number;
}

/**
 * Splits SQL into tokens the way the dialect's server does where it matters to the guard:
 * comments (nested in PostgreSQL, `#` in MySQL), quoting rules (backslash escapes in MySQL and
 * PostgreSQL E'' strings, dollar quotes), and parenthesis depth. The guard uses it for what the
 * parser's tree does not show reliably: where the top-level LIMIT is, locking clauses,
 * statement boundaries and MySQL's executable comments.
 */
export function lexSql(sql: string, dialect: SqlDialect): SqlToken[] {
  const tokens: SqlToken[] = [];
  let depth = 0;
  let i = 0;
  const push = (kind: SqlToken['kind'], end: number, tokenDepth = depth) => {
    tokens.push({ kind, text: sql.slice(i, end), start: i, end, depth: tokenDepth });
    i = end;
  };
  while (i < sql.length) {
    const char = sql[i]!;
    const next = sql[i + 1] ?? '';
    if (/\s/.test(char)) {
      i++;
    } else if (
      char === '-' &&
      next === '-' &&
      (dialect !== 'mysql' || /^(\s|$)/.test(sql[i + 2] ?? ''))
    ) {
      push('comment', lineEnd(sql, i));
    } else if (char === '#' && dialect === 'mysql') {
      push('comment', lineEnd(sql, i));
    } else if (char === '/' && next === '*') {
      push('comment', blockCommentEnd(sql, i, dialect === 'postgresql'));
    } else if (char === "'") {
      const previous = tokens.at(-1);
      const escapes =
        dialect === 'mysql' ||
        (dialect === 'postgresql' &&
          previous?.end === i &&
          previous.kind === 'word' &&
          previous.text.toLowerCase() === 'e');
      push('text', quotedEnd(sql, i, "'", escapes));
    } else if (char === '"') {
      push('text', quotedEnd(sql, i, '"', dialect === 'mysql'));
    } else if (char === '`' && dialect !== 'postgresql') {
      push('text', quotedEnd(sql, i, '`', false));
    } else if (char === '[' && dialect === 'sqlite') {
      const close = sql.indexOf(']', i + 1);
      push('text', close === -1 ? sql.length : close + 1);
    } else if (char === '$' && dialect === 'postgresql') {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length);
        push('text', close === -1 ? sql.length : close + tag.length);
      } else {
        push('param', i + 1 + (/^\d*/.exec(sql.slice(i + 1))?.[0].length ?? 0));
      }
    } else if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(next))) {
      const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(sql.slice(i))![0];
      push('number', i + number.length);
    } else if (/[\p{L}_]/u.test(char)) {
      const word = /^[\p{L}_][\p{L}\p{N}_$]*/u.exec(sql.slice(i))![0];
      push('word', i + word.length);
    } else if (char === '(') {
      push('symbol', i + 1);
      depth++;
    } else if (char === ')') {
      depth = Math.max(0, depth - 1);
      push('symbol', i + 1);
    } else {
      push('symbol', i + 1);
    }
  }
  return tokens;
}

function lineEnd(sql: string, from: number): number {
  const end = sql.indexOf('\n', from);
  return end === -1 ? sql.length : end;
}

/** PostgreSQL nests block comments; the others end at the first closing mark. */
function blockCommentEnd(sql: string, from: number, nested: boolean): number {
  let level = 0;
  let i = from;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      level = nested ? level + 1 : 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      level--;
      i += 2;
      if (level === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** Doubled quotes stay inside; a backslash escapes the next character where the dialect says so. */
function quotedEnd(sql: string, from: number, quote: string, backslashEscapes: boolean): number {
  let i = from + 1;
  while (i < sql.length) {
    const char = sql[i];
    if (backslashEscapes && char === '\\') {
      i += 2;
    } else if (char === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  return sql.length;
}
