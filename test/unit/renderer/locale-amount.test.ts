// Amounts typed in the user's locale: read exactly, never a comma dropped ("1,5" was read as 15),
// ambiguous input refused in words, and what was understood written back in the same locale.
import { describe, expect, it } from 'vitest';
import { formatGrams, parseTonnes } from '@renderer/lib/decimal';
import { localeSeparators, parseLocaleDecimal } from '@renderer/lib/localeAmount';

const grams = (text: string, locale: string) => {
  const parsed = parseTonnes(text, locale);
  return parsed.ok ? { grams: parsed.grams, tonnes: parsed.tonnes, shown: parsed.shown } : parsed.message;
};

describe('amounts typed in the user locale', () => {
  it('knows the separators of en, de and fr', () => {
    expect(localeSeparators('en-US')).toEqual({ decimal: '.', group: ',' });
    expect(localeSeparators('de-DE')).toEqual({ decimal: ',', group: '.' });
    expect(localeSeparators('fr-FR').decimal).toBe(',');
  });

  it('never reads 1,5 as 15 in an en locale: it is refused with a sentence naming 1.5', () => {
    const parsed = parseTonnes('1,5', 'en-US');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toBe(
      '“1,5” is ambiguous: in this desk “,” separates thousands, so write 1.5 if that is what you mean.',
    );
    expect(parseTonnes('12,34', 'en-US').ok).toBe(false);
    expect(parseTonnes('1,5000', 'en-US').ok).toBe(false);
  });

  it('reads the decimal comma of de and fr exactly, and shows it back', () => {
    expect(grams('1,5', 'de-DE')).toEqual({ grams: 1_500_000n, tonnes: 1.5, shown: '1,5 t' });
    expect(grams('0,000001', 'fr-FR')).toEqual({ grams: 1n, tonnes: 0.000001, shown: '0,000001 t' });
    expect(grams('1.234,5', 'de-DE')).toEqual({ grams: 1_234_500_000n, tonnes: 1234.5, shown: '1.234,5 t' });
    expect(grams('1 234,5', 'fr-FR')).toMatchObject({ grams: 1_234_500_000n });
  });

  it('refuses a dot in de when it cannot be a thousands separator, and a comma in de decimals', () => {
    const parsed = parseTonnes('1.5', 'de-DE');
    expect(!parsed.ok && parsed.message).toBe(
      '“1.5” is ambiguous: in this desk “.” separates thousands, so write 1,5 if that is what you mean.',
    );
    expect(parseTonnes('1,5,5', 'de-DE').ok).toBe(false);
  });

  it('reads en decimals and well-formed grouping exactly', () => {
    expect(grams('1.5', 'en-US')).toEqual({ grams: 1_500_000n, tonnes: 1.5, shown: '1.5 t' });
    expect(grams('1,500', 'en-US')).toEqual({ grams: 1_500_000_000n, tonnes: 1500, shown: '1,500 t' });
    expect(grams(' 12.250000 ', 'en-US')).toEqual({ grams: 12_250_000n, tonnes: 12.25, shown: '12.25 t' });
    expect(grams('0.1', 'en-US')).toMatchObject({ grams: 100_000n });
  });

  it('refuses what the registry would refuse, in words', () => {
    expect(grams('', 'en-US')).toBe('Enter an amount in tonnes.');
    expect(grams('0', 'en-US')).toBe('The amount must be greater than 0.');
    expect(grams('0.0000001', 'en-US')).toBe('Amounts can have at most 6 decimals (1 gram is 0.000001 t).');
    expect(grams('-1', 'en-US')).toBe('The amount must be greater than 0.');
    expect(grams('99999999999999999', 'en-US')).toBe(
      'The registry keeps amounts exactly up to 9,007,199,254.740991 t; this one is larger.',
    );
    expect(grams('9007199254.740991', 'en-US')).toMatchObject({ grams: 9_007_199_254_740_991n });
    expect(grams('1e3', 'en-US')).toBe('Enter the amount as a number, for example 12.5.');
    expect(grams('1.2.3', 'en-US')).toBe('Use one “.” at most, before the decimals, for example 12.5.');
    expect(grams('1.5t', 'en-US')).toBe('Write the decimals after “.” as digits only, for example 12.5.');
  });

  it('formats grams in the locale with every significant decimal', () => {
    expect(formatGrams(1_234_500_000n, 'en-US')).toBe('1,234.5');
    expect(formatGrams(1_234_500_000n, 'de-DE')).toBe('1.234,5');
    expect(formatGrams(1n, 'en-US')).toBe('0.000001');
    expect(parseLocaleDecimal('007', 'en-US')).toEqual({ ok: true, whole: '007', fraction: '' });
  });
});
