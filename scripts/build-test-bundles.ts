// `npm run build:test-bundles`: builds what the integration and end-to-end tiers run, the node
// bundles (out/web) and the page (out/renderer), each unless it is current. `npm test` runs it beside
// the lint: ESLint alone outlasts the other checks there, and these builds take the core it leaves
// idle instead of delaying the tiers' own global setups, which find them current and reuse them.
import { buildWebDeskUnlessCurrent } from './build-web-desk';
import { buildWebPageUnlessCurrent } from './build-web-page';

await Promise.all([buildWebDeskUnlessCurrent(), buildWebPageUnlessCurrent()]);
