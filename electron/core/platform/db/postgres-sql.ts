// SQL text and values on their way to libpq: placeholders numbered, parameters converted.
import type { NativeClient } from './postgres-connection';
import { verbatimEnd } from './sql-text';

/** `postgres://user:secret@host/db` without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, '$1:***@');
}

/**
 * SQLite's placeholders in PostgreSQL's form: each `?` becomes the next `$n`; each `@name` (or
 * `:name`) one `$n` per distinct name. Strings, quoted identifiers, comments and `::` casts are left
 * alone. Answers the SQL and the names in order (empty when positional).
 */
export function numberPlaceholders(sql: string): { text: string; names: string[]; count: number } {
  let text = '';
  const names: string[] = [];
  let count = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const verbatim = verbatimEnd(sql, i);
    if (verbatim > i) {
      text += sql.slice(i, verbatim);
      i = verbatim;
    } else if (c === '?') {
      text += `$${++count}`;
      i += 1;
    } else if ((c === '@' || (c === ':' && sql[i + 1] !== ':' && sql[i - 1] !== ':')) && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      let index = names.indexOf(name);
      if (index < 0) index = names.push(name) - 1;
      text += `$${index + 1}`;
      count = Math.max(count, index + 1);
      i += 1 + name.length;
    } else {
      text += c;
      i += 1;
    }
  }
  return { text, names, count };
}

/** `ok` (what a libpq send answered), or the connection's error when it is false. */
export function sent(client: NativeClient, ok: boolean): true {
  if (!ok) throw new Error(client.pq.errorMessage() || 'the statement could not be sent');
  return true;
}

export function toParameter(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value.toString();
  return value;
}
