// Display formatting in one place so every screen writes dates, amounts and ages the same way: one
// date format and one time format, the locale's own ("Nov 28, 2026, 6:57 PM"; "28.11.2026, 18:57"
// in de-DE), in the locale Settings names (DESK_LOCALE).

/** The locale numbers, amounts and dates are written in (the browser's or the system's). */
export const DESK_LOCALE = new Intl.DateTimeFormat().resolvedOptions().locale;
const dateFormat = new Intl.DateTimeFormat(DESK_LOCALE, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(DESK_LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = new Intl.DateTimeFormat(DESK_LOCALE, { timeStyle: 'short' });
const nameCollator = new Intl.Collator(DESK_LOCALE);

/** Orders names as the desk's locale does (en-US and de-DE: "Åland Islands" among the A's). */
export function compareNames(a: string, b: string): number {
  return nameCollator.compare(a, b);
}
import { formatTonnesForPeople, tonnesToGrams, type NumberSeparators } from '@shared/registry/amounts';

const countFormat = new Intl.NumberFormat();
// Amounts are tonnes with up to 6 decimals (whole grams): shown exactly, by the one formatter the
// certificate uses too, with the user's locale's separators.
const separators: NumberSeparators = (() => {
  const parts = new Intl.NumberFormat(undefined, { useGrouping: true }).formatToParts(12345.5);
  return {
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
})();

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

// A calendar day (a project's start, a monitoring period) is the same day everywhere: the registry
// keeps it as that day's midnight UTC, so it is written in UTC (in local time it read a day early
// west of UTC).
const dayFormat = new Intl.DateTimeFormat(DESK_LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The day of a moment, in local time; a date without a time (`2026-11-28`) is that calendar day. */
export function formatDate(iso: string | null | undefined): string {
  if (iso && DATE_ONLY.test(iso)) return formatDay(iso);
  const date = parse(iso);
  return date ? dateFormat.format(date) : '—';
}

/** A calendar day the registry keeps as its midnight UTC ("Nov 28, 2026" in every time zone). */
export function formatDay(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dayFormat.format(date) : '—';
}

export function formatDateTime(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dateTimeFormat.format(date) : '—';
}

/** A time of day ("6:57 PM"), with its date when it is not today ("Nov 29, 2026, 6:57 PM"). */
export function formatTimeOfDay(iso: string | null | undefined, now = Date.now()): string {
  const date = parse(iso);
  if (!date) return '—';
  return new Date(now).toDateString() === date.toDateString() ? timeFormat.format(date) : dateTimeFormat.format(date);
}

export function formatCount(n: number): string {
  return countFormat.format(n);
}

const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A share in percent without its sign, in the locale's marks: "12.5" (en-US), "12,5" (de-DE). */
export function formatPercentNumber(n: number): string {
  return percentFormat.format(n);
}

const percentWithSign = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 4 });

/** A share given in percent, with its sign as the locale writes it: "12.5%" (en-US), "12,5 %" (de-DE). */
export function formatPercent(percent: number): string {
  return percentWithSign.format(percent / 100);
}

/** A tonne amount without its unit: "1,234.5" (exact to the gram; grouped; the locale's marks). */
export function formatTonnesNumber(n: number): string {
  try {
    return formatTonnesForPeople(tonnesToGrams(n), separators);
  } catch {
    // Finer than a gram or beyond exact integers: never from the registry; show it as it is.
    return String(n);
  }
}

/** "1,234.5 t": every amount in the desk is written this way. */
export function formatTonnesValue(n: number): string {
  return `${formatTonnesNumber(n)} t`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function formatAge(iso: string | null | undefined, now = Date.now()): string {
  const date = parse(iso);
  if (!date) return 'never';
  const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.round(hours / 24);
  return `${days} days ago`;
}

/** mm:ss for a countdown; hours are added when needed. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

/**
 * A country's name in the desk's one language for text (English), whatever the locale: the locale
 * shapes numbers and dates only, so a de-DE desk does not mix "Kenia" into English sentences.
 */
export function countryName(code: string | null | undefined): string {
  if (!code) return '—';
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

export function humanize(value: string | null | undefined): string {
  if (!value) return '—';
  const spaced = value.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

export const creditTypeLabel = (type: string) => (type === 'exPost' ? 'Ex-post' : type === 'exAnte' ? 'Ex-ante' : humanize(type));

/**
 * A list's size in words: "1 project", "2,345 projects", or, when the desk only counted up to a
 * limit (a lower bound), "10,000+ projects". Never an exact-looking number for a lower bound.
 */
export function formatTotal(total: number, noun: { one: string; other: string }, isLowerBound = false): string {
  if (isLowerBound) return `${formatCount(total)}+ ${noun.other}`;
  return `${formatCount(total)} ${total === 1 ? noun.one : noun.other}`;
}

/**
 * A paged list's count: "2,345 projects"; past a lower bound "10,000+ projects", until scrolling to
 * the end found the exact number (the list's extent is then exact).
 */
export function formatListTotal(
  list: { total: number; totalIsLowerBound: boolean; extent: { rows: number; exact: boolean } },
  noun: { one: string; other: string },
): string {
  if (list.totalIsLowerBound && list.extent.exact) return formatTotal(list.extent.rows, noun);
  return formatTotal(list.total, noun, list.totalIsLowerBound);
}

/** Whole grams (the operator interface's amounts) as tonnes: "1,234.5 t", exact. */
export function formatGramsValue(grams: number): string {
  return `${formatTonnesForPeople(grams, separators)} t`;
}
