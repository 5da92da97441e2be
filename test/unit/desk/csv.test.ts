// CSV as RFC 4180 writes it, safe against spreadsheet formula injection.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvCell, toCsv } from '@desk/csv';

/** A strict RFC 4180 reader, to check what the writer produced reads back to the same cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralizes formulas: text starting with = + - @ tab or CR gets a leading quote', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers, booleans and empty values as such', () => {
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('toCsv', () => {
  it('writes a header and CRLF-terminated rows', () => {
    const csv = toCsv(
      [
        { header: 'Name', value: (r: { n: string }) => r.n },
        { header: 'Len', value: (r) => r.n.length },
      ],
      [{ n: 'a,b' }, { n: '=1' }],
    );
    expect(csv).toBe('Name,Len\r\n"a,b",3\r\n\'=1,2\r\n');
  });

  it('reads back to the same text for any cell (formula cells with their quote)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (table) => {
        const width = table[0]!.length;
        const rows = table.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
        const columns = Array.from({ length: width }, (_, i) => ({ header: `c${i}`, value: (r: string[]) => r[i]! }));
        const back = parseCsv(toCsv(columns, rows)).slice(1);
        const expected = rows.map((r) => r.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)));
        expect(back).toEqual(expected);
      }),
    );
  });
});
