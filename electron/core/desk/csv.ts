// CSV exactly as RFC 4180 writes it (CRLF line ends, fields with a comma, quote or line break
// quoted, quotes doubled), made safe for spreadsheets: a text cell that starts with = + - @ (or a
// tab or carriage return, which some spreadsheets skip before reading a formula) is prefixed with
// a single quote, so a project name like `=HYPERLINK(...)` from a registry can never run as a
// formula on an account manager's machine.
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  // Numbers and booleans are written as such: a negative amount is a number, not a formula.
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CsvCell;
}

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: Iterable<Row>): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
