// A reservation's countdown never shows more than its hold (issue 30): the registry's clock offset is
// an estimate, so a 10-minute hold just made read "10:01 left" when the desk's estimate was a little
// behind the registry.
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Countdown } from '@renderer/screens/warehouse/Countdown';
import { render } from './render';

it('a 10-minute hold just made shows 10:00 left, even with the clock estimate 3 s behind', async () => {
  const createdAt = Date.now();
  const until = new Date(createdAt + 600_000).toISOString();
  render(<Countdown until={until} from={new Date(createdAt).toISOString()} clockOffsetMs={-3_000} />);
  const timer = page.getByRole('timer');
  await expect.element(timer).toBeVisible();
  // Read once, as first shown (a retried assertion would pass once the clock catches up).
  expect(timer.element().textContent).toBe('10:00 left');
});
