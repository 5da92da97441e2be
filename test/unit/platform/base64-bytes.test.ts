// Node's base64 decoding for the log's leaves (platform/log-crypto.ts base64Bytes) against the
// shared decoder it stands in for on the desk (shared/transparency/bytes.ts fromBase64): the same
// bytes for every padded standard base64 string, undefined for the same strings that are not one
// (Node's own decoder skips characters it does not know, and takes URL-safe ones).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64Bytes } from '@platform/log-crypto';
import { fromBase64 } from '@shared/transparency/bytes';

const same = (text: string) => {
  const shared = fromBase64(text);
  const node = base64Bytes(text);
  expect(node === undefined ? undefined : Array.from(node), JSON.stringify(text)).toEqual(shared && Array.from(shared));
  return node;
};

/** `text` with the character at `at` replaced by `by` (or `by` put in before it when `insert`). */
const altered = (text: string, at: number, by: string, insert: boolean) => text.slice(0, at) + by + text.slice(insert ? at : at + 1);

describe('base64Bytes', () => {
  it('decodes what fromBase64 decodes, to the same bytes', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = randomBytes(length);
      expect(Array.from(same(bytes.toString('base64'))!)).toEqual(Array.from(bytes));
    }
    // trailing bits a canonical encoder would have left zero are dropped by both
    expect(Array.from(same('AB==')!)).toEqual([0]);
    expect(same('')!.length).toBe(0);
  });

  it('refuses what fromBase64 refuses', () => {
    const refused = [
      'A',
      'AB',
      'ABC',
      'AB=', // not a multiple of four
      'A===',
      '====',
      'AB=C',
      'A=BC',
      '=ABC', // padding elsewhere than the last two places
      'AB-_',
      'AB_=', // URL-safe characters, which Node alone would take
      'AB C',
      'AB\nC',
      'ABC\u00e9',
      'AB.C',
      'AB*=', // characters outside the alphabet, which Node alone would skip
    ];
    for (const text of refused) {
      expect(base64Bytes(text), JSON.stringify(text)).toBeUndefined();
      same(text);
    }
  });

  it('answers as fromBase64 for texts altered anywhere', () => {
    const strangers = ['=', '-', '_', ' ', '\n', '.', '\u00e9', '\u0000', 'A', '/', '+'];
    for (let length = 1; length < 14; length++) {
      const text = randomBytes(length).toString('base64');
      for (let at = 0; at <= text.length; at++) {
        for (const by of strangers) {
          same(altered(text, at, by, false));
          // inserted and one character dropped: the length stays a multiple of four
          same(altered(altered(text, at, by, true), (at + 3) % (text.length + 1), '', false));
          same(altered(text, at, by + by + by + by, true));
        }
      }
    }
  });
});
