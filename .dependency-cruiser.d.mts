// Types of .dependency-cruiser.mjs, for test/unit/guardrails/architecture.test.ts, which cruises fixture
// trees with the real rule set.
import type { ICruiseOptions, IForbiddenRuleType } from 'dependency-cruiser';

declare const configuration: { forbidden: IForbiddenRuleType[]; options: ICruiseOptions };
export default configuration;
