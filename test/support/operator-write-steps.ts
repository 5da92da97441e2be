// The random operator writes of operator-writes.test.ts's property test: a step is an issuance, a
// transfer or a deposit (each with or without an Idempotency-Key), a viewer's issuance (refused), a
// bad body, a replay of an earlier request, or an earlier key reused for another body. requestFor
// turns a step into the request it sends.
import fc from 'fast-check';
import type { Fixture } from '@test/support/fixture';

export type Step =
  | { kind: 'issue'; amount: number; key?: string }
  | { kind: 'transfer'; amount: number; key?: string }
  | { kind: 'deposit'; amount: number; key?: string }
  | { kind: 'viewerIssue' }
  | { kind: 'badBody'; key?: string }
  | { kind: 'replay'; index: number }
  | { kind: 'reuseKey'; index: number };

const amount = fc.integer({ min: 1, max: 5_000_000 }).map((g) => g / 1_000_000);
const key = fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: undefined });
export const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('issue' as const), amount, key }),
  fc.record({ kind: fc.constant('transfer' as const), amount, key }),
  fc.record({ kind: fc.constant('deposit' as const), amount, key }),
  fc.record({ kind: fc.constant('viewerIssue' as const) }),
  fc.record({ kind: fc.constant('badBody' as const), key }),
  fc.record({ kind: fc.constant('replay' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('reuseKey' as const), index: fc.nat() }),
);

/** A request a run has sent with a key, and its answer. */
export interface SentRequest {
  path: string;
  body: unknown;
  key: string;
  token: string;
  status: number;
  answer: string;
}

/**
 * The request a step sends in run `run` (undefined: a replay or reused key before anything was sent
 * with a key); its key is as the step drew it, not yet made the run's own.
 */
export function requestFor(
  s: Step,
  run: number,
  sent: SentRequest[],
  f: Fixture,
  tokens: { manager: string; viewer: string },
): { path: string; body: unknown; token: string; key: string | undefined } | undefined {
  let path: string;
  let body: unknown;
  let token = tokens.manager;
  let k: string | undefined;
  if (s.kind === 'replay' || s.kind === 'reuseKey') {
    if (sent.length === 0) return undefined;
    const previous = sent[s.index % sent.length]!;
    path = previous.path;
    body = s.kind === 'replay' ? previous.body : { ...(previous.body as object), amount: 0.5 + run };
    token = previous.token;
    k = previous.key;
  } else if (s.kind === 'viewerIssue' || s.kind === 'issue') {
    path = '/operator/v1/issuances';
    body = {
      projectId: f.projectId,
      vintage: '2025',
      amount: s.kind === 'issue' ? s.amount : 1,
      monitoringPeriodStart: '2025-01-01',
      monitoringPeriodEnd: '2025-12-31',
      verificationBodyId: f.validatorId,
    };
    if (s.kind === 'viewerIssue') token = tokens.viewer;
    else k = s.key;
  } else if (s.kind === 'transfer') {
    path = '/operator/v1/transfers';
    body = {
      from: { kind: 'inventory', organizationId: f.orgA },
      to: { kind: 'registry' },
      creditId: f.creditId,
      amount: s.amount,
    };
    k = s.key;
  } else if (s.kind === 'deposit') {
    path = '/operator/v1/warehouse/deposits';
    body = { organizationId: f.orgA, creditId: f.creditId, amount: s.amount };
    k = s.key;
  } else {
    path = '/operator/v1/transfers';
    body = { from: { kind: 'nowhere' }, amount: -1 };
    k = s.key;
  }
  return { path, body, token, key: k };
}
