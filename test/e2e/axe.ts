// axe-core as the end-to-end specs run it: the WCAG 2.1 AA and best-practice rules.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * An axe run on `page` in legacy mode: axe.run in the page itself, where the default runs
 * axe.runPartial there, then opens a new blank page, injects axe-core into it again and runs
 * axe.finishRun in it, for every analysis. The same rules on the same nodes; only cross-origin
 * frames would go untested, and the desk's page has no frame. a11y-axe.spec.ts (30 analyses) alone
 * on one worker, with setup: 42.2 and 42.1 s of CPU before, 27.6 and 28.9 s in legacy mode.
 */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
}
