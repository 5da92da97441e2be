// What every part of the demo seed works with, and the timeline that runs the planned operations
// in date order. Planning draws every random choice up front; running sets the seed clock to each
// action's date before calling the operation, so createdAt values follow the story of the registry
// and never the wall clock.
import { gramsToTonnes } from '@shared/registry/amounts';
import { ManualClock } from '@platform/clock';
import type { RegistryContext } from '../context';
import type { Random } from './random';
import type { SeedLedger } from './seed-ledger';

/** The demo registry's story happens between these instants (UTC). */
export const SEED_START = Date.UTC(2014, 0, 6, 9, 0, 0);
export const SEED_END = Date.UTC(2025, 8, 30, 17, 0, 0);

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface SeedRun {
  /** The registry context the seed writes through: deterministic ids, the seed clock. */
  ctx: RegistryContext;
  clock: ManualClock;
  random: Random;
  timeline: Timeline;
  /** High-volume ledger moves (retirements, purchases, deposits): see seed-ledger.ts. */
  ledger: SeedLedger;
  scale: number;
}

interface ScheduledAction {
  at: number;
  seq: number;
  run: () => void;
}

/**
 * Actions sorted by date; actions planned later run later on the same date, so an action planned
 * after the one it depends on (with a date not before it) always finds its effects.
 */
export class Timeline {
  private readonly actions: ScheduledAction[] = [];

  at(at: number, run: () => void): void {
    if (!Number.isSafeInteger(at)) throw new Error(`seed action at an invalid time: ${at}`);
    this.actions.push({ at, seq: this.actions.length, run });
  }

  get size(): number {
    return this.actions.length;
  }

  runAll(clock: ManualClock): void {
    this.actions.sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const action of this.actions) {
      clock.set(action.at);
      action.run();
    }
    this.actions.length = 0;
  }
}

/**
 * A time `minDays`..`maxDays` after `from` (at a random hour), never after SEED_END. A time drawn
 * past SEED_END is folded back into what is left of the window (from `minDays` after `from` to
 * SEED_END) rather than clamped to SEED_END: clamped, a quarter of the demo's retirements all
 * happened at SEED_END's very second, and the retirements list, newest first, opened on a page of
 * one date.
 */
export function laterThan(random: Random, from: number, minDays: number, maxDays: number): number {
  const offset = Math.floor(random.between(minDays, maxDays) * DAY_MS);
  const at = from + offset;
  if (at <= SEED_END) return Math.max(from, at);
  const earliest = Math.max(from, from + Math.floor(minDays * DAY_MS));
  if (earliest >= SEED_END) return Math.max(from, SEED_END);
  return earliest + ((at - earliest) % (SEED_END - earliest + 1));
}

/** A random instant between two dates. */
export function timeBetween(random: Random, from: number, to: number): number {
  return from + Math.floor(random.next() * Math.max(0, to - from));
}

export const utc = (year: number, month = 1, day = 1): number => Date.UTC(year, month - 1, day);

/** Whole grams to the tonnes number the operations take (exact: see shared/registry/amounts.ts). */
export const tonnes = (grams: number): number => gramsToTonnes(grams);

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
