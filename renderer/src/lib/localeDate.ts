// Dates typed by the user, read in the desk's locale (DESK_LOCALE), never the browser's own idea of
// it: a native date input draws its fields in the browser's language, which need not be the locale
// every other date of the desk is written in (a de-DE desk showed 28.11.2026 beside 11/28/2026).
// A date is typed as the locale writes it ("28.11.2026" in de-DE, "11/28/2026" in en-US), or as
// an ISO date (2026-11-28, which cannot be misread); anything else is refused in words, with the
// locale's pattern and an example. The value kept and sent is the ISO date.
import { DESK_LOCALE } from './format';

type Part = 'day' | 'month' | 'year';

export interface DateShape {
  /** The order the locale writes day, month and year in. */
  order: Part[];
  /** What stands between them ("/", ".", "-"). */
  separator: string;
  /** "DD.MM.YYYY", "MM/DD/YYYY": for hints and messages. */
  pattern: string;
  /** The same date (28 November 2026) written that way. */
  example: string;
}

const EXAMPLE = new Date(Date.UTC(2026, 10, 28));
const LETTERS: Record<Part, string> = { day: 'DD', month: 'MM', year: 'YYYY' };

/** How `locale` writes a date with digits only. */
export function dateShape(locale: string = DESK_LOCALE): DateShape {
  const parts = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).formatToParts(
    EXAMPLE,
  );
  const order = parts.map((p) => p.type).filter((t): t is Part => t === 'day' || t === 'month' || t === 'year');
  const separator = parts.find((p) => p.type === 'literal')?.value.trim() || '/';
  if (order.length !== 3 || new Set(order).size !== 3)
    return { order: ['year', 'month', 'day'], separator: '-', pattern: 'YYYY-MM-DD', example: '2026-11-28' };
  const digits: Record<Part, string> = { day: '28', month: '11', year: '2026' };
  return {
    order,
    separator,
    pattern: order.map((p) => LETTERS[p]).join(separator),
    example: order.map((p) => digits[p]).join(separator),
  };
}

export type ParsedDate = { ok: true; iso: string } | { ok: false; message: string };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function isoOf(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Reads a date typed in `locale` (or as an ISO date); empty text is refused as "no date". */
export function parseLocaleDate(text: string, locale: string = DESK_LOCALE): ParsedDate {
  const shape = dateShape(locale);
  const wrong: ParsedDate = { ok: false, message: `Write the date as ${shape.pattern}, for example ${shape.example}.` };
  const value = text.trim();
  if (value === '') return { ok: false, message: `Enter a date as ${shape.pattern}, for example ${shape.example}.` };
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (iso) {
    const made = isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return made ? { ok: true, iso: made } : { ok: false, message: `There is no such date: ${value}.` };
  }
  const pieces = value.split(shape.separator).map((p) => p.trim());
  if (pieces.length !== 3 || pieces.some((p) => !/^\d+$/.test(p))) return wrong;
  const at = (part: Part) => pieces[shape.order.indexOf(part)] ?? '';
  if (at('year').length !== 4 || at('day').length > 2 || at('month').length > 2) return wrong;
  const made = isoOf(Number(at('year')), Number(at('month')), Number(at('day')));
  return made ? { ok: true, iso: made } : { ok: false, message: `There is no such date: ${value}.` };
}

/** An ISO date (2026-11-28, or the date of an ISO timestamp) as `locale` writes it with digits; '' stays ''. */
export function formatLocaleDateInput(iso: string, locale: string = DESK_LOCALE): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return iso;
  const shape = dateShape(locale);
  const digits: Record<Part, string> = { year: match[1]!, month: match[2]!, day: match[3]! };
  return shape.order.map((p) => digits[p]).join(shape.separator);
}

/** The hint under a date field: how to write it ("As DD.MM.YYYY, for example 28.11.2026."). */
export function dateHint(locale: string = DESK_LOCALE): string {
  const shape = dateShape(locale);
  return `As ${shape.pattern}, for example ${shape.example}.`;
}
