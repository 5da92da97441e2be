// Dates typed as the desk's locale writes them (the page's locale, not the browser's language a
// native date input follows): read into ISO dates, what is not a date of that form refused in words
// with the pattern and an example, and written back in the same form.
import { describe, expect, it } from 'vitest';
import { dateHint, dateShape, formatLocaleDateInput, parseLocaleDate } from '@renderer/lib/localeDate';
import { bufferBasisPoints } from '@renderer/screens/back-office/issuance/issuanceForm';

describe('dates typed in the desk locale', () => {
  it('knows how en-US, de-DE and en-GB write a date', () => {
    expect(dateShape('en-US')).toMatchObject({ pattern: 'MM/DD/YYYY', example: '11/28/2026' });
    expect(dateShape('de-DE')).toMatchObject({ pattern: 'DD.MM.YYYY', example: '28.11.2026' });
    expect(dateShape('en-GB')).toMatchObject({ pattern: 'DD/MM/YYYY', example: '28/11/2026' });
    expect(dateHint('de-DE')).toBe('As DD.MM.YYYY, for example 28.11.2026.');
  });

  it('reads the locale form, with or without leading zeros, and an ISO date everywhere', () => {
    expect(parseLocaleDate('28.11.2026', 'de-DE')).toEqual({ ok: true, iso: '2026-11-28' });
    expect(parseLocaleDate(' 1.2.2026 ', 'de-DE')).toEqual({ ok: true, iso: '2026-02-01' });
    expect(parseLocaleDate('2/1/2026', 'en-US')).toEqual({ ok: true, iso: '2026-02-01' });
    expect(parseLocaleDate('2026-02-01', 'de-DE')).toEqual({ ok: true, iso: '2026-02-01' });
    expect(parseLocaleDate('2026-02-01', 'en-US')).toEqual({ ok: true, iso: '2026-02-01' });
  });

  it('refuses another locale form, a two-digit year and a day that does not exist, in words', () => {
    expect(parseLocaleDate('11/28/2026', 'de-DE')).toEqual({ ok: false, message: 'Write the date as DD.MM.YYYY, for example 28.11.2026.' });
    expect(parseLocaleDate('28.11.2026', 'en-US')).toEqual({ ok: false, message: 'Write the date as MM/DD/YYYY, for example 11/28/2026.' });
    expect(parseLocaleDate('28.11.26', 'de-DE').ok).toBe(false);
    expect(parseLocaleDate('31.02.2026', 'de-DE')).toEqual({ ok: false, message: 'There is no such date: 31.02.2026.' });
    expect(parseLocaleDate('2026-13-01', 'en-US')).toEqual({ ok: false, message: 'There is no such date: 2026-13-01.' });
    expect(parseLocaleDate('', 'de-DE')).toEqual({ ok: false, message: 'Enter a date as DD.MM.YYYY, for example 28.11.2026.' });
  });

  it('writes an ISO date (or timestamp) back in the locale form', () => {
    expect(formatLocaleDateInput('2026-02-01', 'de-DE')).toBe('01.02.2026');
    expect(formatLocaleDateInput('2026-02-01T00:00:00.000Z', 'en-US')).toBe('02/01/2026');
    expect(formatLocaleDateInput('', 'de-DE')).toBe('');
  });
});

describe('a buffer share typed in the desk locale', () => {
  it('reads the locale decimal mark and refuses the other one, as amounts do', () => {
    expect(bufferBasisPoints('12,5', 'de-DE')).toBe(1250);
    expect(bufferBasisPoints('12.5', 'en-US')).toBe(1250);
    // "12,5" in en-US was read as 12.5 by dropping in a dot; the desk reads "," there as thousands
    expect(bufferBasisPoints('12,5', 'en-US')).toBeNull();
    expect(bufferBasisPoints('100', 'en-US')).toBe(10_000);
    expect(bufferBasisPoints('100.01', 'en-US')).toBeNull();
    expect(bufferBasisPoints('1.255', 'en-US')).toBeNull();
  });
});
