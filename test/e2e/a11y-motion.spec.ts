// Issue 19 item 8 (motion): with prefers-reduced-motion: reduce, the pulsing sync dot and the
// spinner stand still. Both are transient (a sync run, a load), so the check reads the desk's own
// stylesheet on one of each added to the page, rather than racing a sync.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function animations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const probes = ['sync-dot sync-dot-running', 'spinner'].map((className) => {
      const probe = document.createElement('span');
      probe.className = className;
      document.body.append(probe);
      return probe;
    });
    const names = probes.map((probe) => getComputedStyle(probe).animationName);
    for (const probe of probes) probe.remove();
    return names;
  });
}

test('the sync dot and the spinner stop when reduced motion is asked for', async ({ app }) => {
  await app.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await animations(app)).toEqual(['pulse', 'spin']);
  await app.emulateMedia({ reducedMotion: 'reduce' });
  expect(await animations(app)).toEqual(['none', 'none']);
});
