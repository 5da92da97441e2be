// Vitest global setup of the integration tier: builds out/web (scripts/build-web-desk.ts) from the
// working tree, so tests that run the registry's CLIs as processes run them bundled, as the e2e
// tests run the web desk, instead of paying tsx's compile at each of dozens of starts.
import { buildWebDesk } from '@scripts/build-web-desk';

export default async function setup(): Promise<void> {
  await buildWebDesk();
}
