// The taskbar / dock progress bar follows the sync: a fraction while a resource with a known total
// is fetched, indeterminate otherwise, cleared when the sync ends.
import type { DeskEvent } from '@shared/desk/api';

export type ProgressBarSetting = { value: number; mode: 'normal' | 'indeterminate' | 'none' | 'error' };

export function progressBarFor(event: DeskEvent): ProgressBarSetting | undefined {
  switch (event.type) {
    case 'sync.progress': {
      const { done, total } = event.progress;
      if (total === null || total === 0) return { value: 2, mode: 'indeterminate' };
      return { value: Math.min(1, done / total), mode: 'normal' };
    }
    case 'sync.finished':
    case 'sync.failed':
      return { value: -1, mode: 'none' };
    default:
      return undefined;
  }
}
