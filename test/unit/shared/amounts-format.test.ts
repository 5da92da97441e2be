// The one way tonnes are shown to people: exact to the gram, grouped, the locale's marks.
import { describe, expect, it } from 'vitest';
import { formatTonnes, formatTonnesForPeople } from '@shared/registry/amounts';

describe('formatTonnesForPeople', () => {
  it('groups the whole part and keeps every significant decimal, no more', () => {
    expect(formatTonnesForPeople(0)).toBe('0');
    expect(formatTonnesForPeople(1)).toBe('0.000001');
    expect(formatTonnesForPeople(1_250_000)).toBe('1.25');
    expect(formatTonnesForPeople(999_000_000)).toBe('999');
    expect(formatTonnesForPeople(1_000_000_000)).toBe('1,000');
    expect(formatTonnesForPeople(1_234_567_500_000)).toBe('1,234,567.5');
    expect(formatTonnesForPeople(-12_345_000_000)).toBe('-12,345');
  });

  it("uses the locale's separators when given, and the CSV's plain form has none", () => {
    expect(formatTonnesForPeople(1_234_567_500_000, { group: '.', decimal: ',' })).toBe('1.234.567,5');
    expect(formatTonnesForPeople(1_234_567_500_000, { group: '\u202f', decimal: ',' })).toBe('1\u202f234\u202f567,5');
    expect(formatTonnes(1_234_567_500_000)).toBe('1234567.5');
  });
});
