// Seed-interface answers through the compiled shape check (electron/core/desk/sync/seed-answers.ts):
// the real answers of the endpoints the sync reads one by one or page by page pass it and are used
// as parsed, each exactly what the client's zod check answers; an answer zod would reshape or refuse
// still goes through zod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointId } from '@shared/registry/endpoints';
import { AdjustableClock, systemClock } from '@platform/clock';
import { createRegistryClient } from '@desk/client/registry-client';
import type { Caller } from '@registry/auth/caller';
import { creditHandlers } from '@registry/http/handlers/credits';
import { projectHandlers } from '@registry/http/handlers/projects';
import { retirementReadHandlers } from '@registry/http/handlers/retirements-read';
import { exactAnswerCheck, parseSeedAnswer, parseSeedPage } from '@desk/sync/seed-answers';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import { buildReadScenario, type ReadScenario } from '@test/support/read-scenario';
import { makeDataDir } from '@test/support/registry';

const dir = makeDataDir('seed-answers-');
let registry: OpenedRegistry;
let s: ReadScenario;
// parse needs no connection: nothing here is ever sent
const client = createRegistryClient({ baseUrl: 'http://127.0.0.1:9', tokens: {} as never, clock: systemClock });
const examiner: Caller = {
  kind: 'token',
  tokenId: 't',
  appId: 'a',
  appName: 'App',
  examinerRead: true,
  installationId: null,
  organizationId: null,
  permissions: {},
};
/** Every answer of the endpoints the seed sync reads, as the registry writes it. */
const answers: [EndpointId, string][] = [];

beforeAll(async () => {
  registry = openRegistry({ dataDir: dir.dir, clock: new AdjustableClock() });
  s = buildReadScenario(registry);
  const text = async (answer: unknown) => {
    const value = await answer;
    const json = value as { kind?: string; bytes?: Uint8Array };
    return json.kind === 'json-text' ? Buffer.from(json.bytes!).toString('utf8') : JSON.stringify(value);
  };
  const input = { registry, caller: examiner, body: undefined, rawBody: {} };
  const query = { page: 0, limit: 100 };
  answers.push(['listProjects', await text(projectHandlers.listProjects({ ...input, params: {}, query }))]);
  answers.push(['listInternalProjects', await text(projectHandlers.listInternalProjects({ ...input, params: {}, query }))]);
  answers.push(['listRetirementsV1', await text(retirementReadHandlers.listRetirementsV1({ ...input, params: {}, query }))]);
  for (const id of [s.projectId, s.publicProjectOfB, s.projectOfC]) {
    const params = { projectId: id, id };
    answers.push(['getInternalProject', await text(projectHandlers.getInternalProject({ ...input, params, query: {} }))]);
    answers.push(['getProjectCredits', await text(creditHandlers.getProjectCredits({ ...input, params, query: {} }))]);
  }
});
afterAll(() => {
  registry.close();
  dir.remove();
});

describe('seed answers through the compiled check', () => {
  it('passes every real answer, used as parsed and equal to what zod answers', () => {
    for (const [id, text] of answers.filter(([id]) => !id.startsWith('list'))) {
      expect(exactAnswerCheck(id)(JSON.parse(text)), `${id}: ${text.slice(0, 120)}`).toBe(true);
      expect(JSON.stringify(parseSeedAnswer(client, id, text)), id).toBe(JSON.stringify(client.parse(id, text)));
    }
  });

  it('checks list pages item by item: each as zod answers it', () => {
    // the scenario has claimed retirements and redacted ones; with the redacted ones' fields in
    // another order than their schema's, the page is not exact as a whole, its claimed items are
    const [, sent] = answers.find(([id]) => id === 'listRetirementsV1')!;
    expect(sent).toContain('"isClaimed":false');
    expect(sent).toContain('"isClaimed":true');
    expect(exactAnswerCheck('listRetirementsV1')(JSON.parse(sent))).toBe(true);
    const sentPage = JSON.parse(sent) as { retirements: Record<string, unknown>[] };
    const retirements = JSON.stringify({
      ...sentPage,
      retirements: sentPage.retirements.map((r) => (r.isClaimed ? r : (({ isClaimed, ...rest }) => ({ ...rest, isClaimed }))(r))),
    });
    expect(exactAnswerCheck('listRetirementsV1')(JSON.parse(retirements))).toBe(false);
    const lists = answers
      .filter(([id]) => id.startsWith('list'))
      .map(([id, text]) => [id, id === 'listRetirementsV1' ? retirements : text]);
    for (const [id, text] of lists as [(typeof answers)[number][0], string][]) {
      const key = id === 'listRetirementsV1' ? 'retirements' : 'projects';
      expect(JSON.stringify(parseSeedPage(client, id, text, key)), id).toBe(JSON.stringify(client.parse(id, text)));
    }
    const page = JSON.parse(retirements) as { retirements: Record<string, unknown>[] };
    const broken = JSON.stringify({ ...page, retirements: [...page.retirements, { ...page.retirements[0], amount: 'lots' }] });
    expect(() => parseSeedPage(client, 'listRetirementsV1', broken, 'retirements')).toThrow(/does not match the contract: retirements/);
  });

  it('leaves to zod what it would reshape or refuse', () => {
    const [, credits] = answers.find(([id]) => id === 'getProjectCredits')!;
    const extra = JSON.stringify({ ...(JSON.parse(credits) as object), extra: 1 });
    expect(exactAnswerCheck('getProjectCredits')(JSON.parse(extra))).toBe(false);
    // zod drops the unknown field: the same answer as without it
    expect(parseSeedAnswer(client, 'getProjectCredits', extra)).toEqual(JSON.parse(credits));
    const broken = JSON.stringify({ ...(JSON.parse(credits) as object), summary: 'none' });
    expect(() => parseSeedAnswer(client, 'getProjectCredits', broken)).toThrow(/does not match the contract: summary/);
    expect(() => parseSeedAnswer(client, 'getProjectCredits', '{not json')).toThrow(/carbonCredits/);
  });
});
