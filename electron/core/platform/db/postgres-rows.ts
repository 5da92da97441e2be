// The rows of a statement's result, as pg-native builds them (its value conversions: postgres-native.ts)
// but with the result's shape (column names and conversions) kept per statement. pg-native reads every
// column's name and type and builds a template row again for each result, which was a measurable share
// of a read's CPU; a statement's result has the same columns each time, so here they are read once and
// only checked (count and types) on later results.
import type { NativeClient } from './postgres-connection';
import { TYPES } from './postgres-values';

type PQ = NativeClient['pq'];
type Rows = Record<string, unknown>[];

interface Shape {
  names: string[];
  types: number[];
  parsers: ((value: string) => unknown)[];
}

function shapeOf(pq: PQ, fields: number): Shape {
  const shape: Shape = { names: [], types: [], parsers: [] };
  for (let j = 0; j < fields; j++) {
    shape.names.push(pq.fname(j));
    shape.types.push(pq.ftype(j));
    shape.parsers.push(TYPES.getTypeParser(shape.types[j]!));
  }
  return shape;
}

/** Whether the current result has the shape's columns (by count and type; a statement's names do not change alone). */
function fits(pq: PQ, shape: Shape, fields: number): boolean {
  if (shape.types.length !== fields) return false;
  for (let j = 0; j < fields; j++) if (pq.ftype(j) !== shape.types[j]) return false;
  return true;
}

/** Reads the rows of one statement's results (one per statement: it remembers their shape). */
export class ResultRows {
  private shape: Shape | undefined;

  read(pq: PQ): Rows {
    const count = pq.ntuples();
    if (count === 0) return [];
    const fields = pq.nfields();
    let shape = this.shape;
    if (!shape || !fits(pq, shape, fields)) shape = this.shape = shapeOf(pq, fields);
    const { names, parsers } = shape;
    const rows: Rows = new Array<Record<string, unknown>>(count);
    for (let i = 0; i < count; i++) {
      const row: Record<string, unknown> = {};
      for (let j = 0; j < fields; j++) {
        const raw = pq.getvalue(i, j);
        row[names[j]!] = raw === '' && pq.getisnull(i, j) ? null : parsers[j]!(raw);
      }
      rows[i] = row;
    }
    return rows;
  }
}
