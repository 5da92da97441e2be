// 4.1 Projects over real HTTP: what the public sees, the internal views, finding by credit, and
// that answers follow every change (the page cache never serves stale data).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '@shared/registry/resources';
import * as ops from '@registry/operations';
import { readSettings } from '@registry/settings';
import { appToken, createTestApp, openSecondConnection, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildReadScenario, getError, getOk, type ReadScenario } from '@test/support/read-scenario';

let t: TestRegistry;
let s: ReadScenario;
let token: string;
let examinerToken: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (s = buildReadScenario(r)) });
  token = await appToken(t, createTestApp(t.registry));
  examinerToken = await appToken(t, createTestApp(t.registry, { examinerRead: true }));
});
afterAll(() => t.close());

const byId = (projects: Project[], id: string) => {
  const found = projects.find((p) => p.id === id);
  if (!found) throw new Error(`project ${id} not in the answer`);
  return found;
};

describe('GET /projects', () => {
  it('lists only public projects of verified organizations', async () => {
    const body = await getOk(t, 'listProjects', '/projects?limit=100&page=0', token);
    const ids = body.projects.map((p) => p.id);
    // validated (A, verified) and registered (B, verified) are public; the draft and the project of unverified C are not
    expect(new Set(ids)).toEqual(new Set([s.projectId, s.publicProjectOfB]));
    expect(body.pagination).toEqual({ total: 2, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null });
  });

  it('lists projects in project-number order', async () => {
    const body = await getOk(t, 'listProjects', '/projects', token);
    const nums = body.projects.map((p) => Number(p.num));
    expect(nums).toEqual([...nums].sort((a, b) => a - b));
  });

  it('presents every field of a project with optional fields present', async () => {
    const body = await getOk(t, 'listProjects', '/projects', token);
    const b = byId(body.projects, s.publicProjectOfB);
    expect(b).toMatchObject({
      fullName: 'Baltic Wind',
      status: 'registered',
      registry: readSettings(t.registry).name,
      publicUrl: `${t.registry.urls.publicBaseUrl}/projects/${s.publicProjectOfB}`,
      startDate: '2021-03-01T00:00:00.000Z',
      creditingPeriodStartDate: '2021-03-01T00:00:00.000Z',
      estimatedAnnualMitigations: ['1500', null, '1700'],
      city: 'Rostock',
      state: 'MV',
      thumbnail: 'https://img.example.org/wind.png',
      countryCode: 'DE',
      sector: { id: 'energy', title: 'Energy' },
      methodology: { id: 'icr-re-002', title: 'Renewable energy' },
      type: { id: 'avoidance', title: 'Avoidance', description: 'Avoids emissions' },
    });
    expect(b.num).toMatch(/^\d+$/);
    // the owning organization first, then the other proponents, in position order
    expect(b.proponents.map((o) => o.id)).toEqual([s.orgB, s.orgA]);
    expect(b.proponents[0]).toEqual({
      fullName: 'Beta Buyers AG',
      logo: '',
      id: s.orgB,
      publicUrl: `${t.registry.urls.publicBaseUrl}/organizations/${s.orgB}`,
    });
    expect(b.validators.map((o) => o.id)).toEqual([s.validatorId]);
    // benefits in the order they were given, not by id
    expect(b.otherBenefits).toEqual([
      { title: 'Jobs', checked: true, id: 3, description: 'Local jobs' },
      { title: 'Biodiversity', checked: false, id: 1, description: '' },
    ]);
    // public documents only, by position; the kml file apart
    expect(b.documentation.map((d) => d.name)).toEqual(['Project design', 'Validation report']);
    expect(b.documentation.every((d) => d.isPublic)).toBe(true);
    expect(b.kmlFile).toMatchObject({ uri: 'https://files.example.org/site.kml', type: 'kml', name: 'Site', isPublic: true });
    expect(b).not.toHaveProperty('location');
  });

  it('leaves out optional fields that are not set', async () => {
    const body = await getOk(t, 'listProjects', '/projects', token);
    const p = byId(body.projects, s.projectId);
    expect(p.location).toEqual({ lat: -3.07, lng: 37.35 });
    for (const field of ['city', 'thumbnail', 'state', 'kmlFile']) expect(p).not.toHaveProperty(field);
    expect(p.countryCode).toBe('KE');
    expect(p.documentation).toEqual([]);
    expect(p.estimatedAnnualMitigations).toEqual([]);
  });

  it('ignores query parameters it does not know', async () => {
    const plain = await getOk(t, 'listProjects', '/projects', token);
    const extra = await getOk(t, 'listProjects', '/projects?offset=5&organizationId=x&sort=desc', token);
    expect(extra).toEqual(plain);
  });

  it('follows every change at once, from this connection or another one', async () => {
    const before = await getOk(t, 'listProjects', '/projects', token);
    expect(before.projects.map((p) => p.id)).not.toContain(s.projectOfC);
    ops.setOrganizationVerified(t.registry, { organizationId: s.orgC, verified: true });
    const afterVerify = await getOk(t, 'listProjects', '/projects', token);
    expect(afterVerify.projects.map((p) => p.id)).toContain(s.projectOfC);
    expect(afterVerify.pagination.total).toBe(before.pagination.total + 1);

    // another connection to the same database (the operator CLI while the server runs)
    const other = openSecondConnection(t);
    try {
      ops.setOrganizationVerified(other, { organizationId: s.orgC, verified: false });
    } finally {
      other.close();
    }
    const afterUnverify = await getOk(t, 'listProjects', '/projects', token);
    expect(afterUnverify).toEqual(before);
  });
});

describe('GET /projects/{id}', () => {
  it('answers the list envelope with exactly that project', async () => {
    const body = await getOk(t, 'getProject', `/projects/${s.publicProjectOfB}`, token);
    expect(body.pagination).toEqual({ total: 1, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null });
    const list = await getOk(t, 'listProjects', '/projects', token);
    expect(body.projects).toEqual([byId(list.projects, s.publicProjectOfB)]);
  });

  it('is 404 for unknown and non-public projects', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', s.draftProjectId, s.projectOfC]) {
      const error = await getError(t, `/projects/${id}`, token, 404);
      expect(error.error).toBe('Not Found');
      expect(error.message).toContain(id);
    }
  });
});

describe('GET /projects/find/project', () => {
  it('finds the project that issued a credit by credit id or serialization', async () => {
    const byCredit = await getOk(t, 'findProject', `/projects/find/project?creditId=${s.creditId}`, token);
    expect(byCredit.id).toBe(s.projectId);
    const bySerialization = await getOk(t, 'findProject', `/projects/find/project?serialization=${s.serialization}`, token);
    expect(bySerialization).toEqual(byCredit);
    const both = await getOk(t, 'findProject', `/projects/find/project?serialization=${s.serialization}&creditId=${s.creditId}`, token);
    expect(both).toEqual(byCredit);
  });

  it('accepts a credit id with an upper-case contract address', async () => {
    const [type, tokenId, address] = s.creditId.split('-') as [string, string, string];
    const body = await getOk(
      t,
      'findProject',
      `/projects/find/project?creditId=${type}-${tokenId}-0x${address.slice(2).toUpperCase()}`,
      token,
    );
    expect(body.id).toBe(s.projectId);
  });

  it('is 404 when nothing matches, including keys that disagree', async () => {
    await getError(t, '/projects/find/project?creditId=exPost-999-0x0000000000000000000000000000000000000000', token, 404);
    await getError(t, '/projects/find/project?serialization=RDR-KEN-1-1-1-P-0-1999', token, 404);
    // both keys name real credits of the same project, but not the same credit
    await getError(t, `/projects/find/project?creditId=${s.exAnte2023.creditId}&serialization=${s.serialization}`, token, 404);
  });

  it('is 400 without a key', async () => {
    const error = await getError(t, '/projects/find/project', token, 400);
    expect(String(error.message)).toContain('serialization or creditId is required');
  });
});

describe('internal project endpoints', () => {
  it('refuses apps without examiner:read', async () => {
    expect((await getError(t, '/projects/internal', token, 403)).message).toBe('Missing permission examiner:read');
    await getError(t, `/projects/internal/${s.projectId}`, token, 403);
  });

  it('lists every project, whatever its status or organization', async () => {
    const body = await getOk(t, 'listInternalProjects', '/projects/internal?limit=50', examinerToken);
    expect(new Set(body.projects.map((p) => p.id))).toEqual(new Set([s.projectId, s.draftProjectId, s.publicProjectOfB, s.projectOfC]));
    expect(body.pagination.total).toBe(4);
    // examiners see non-public documents too
    expect(byId(body.projects, s.publicProjectOfB).documentation.map((d) => d.name)).toEqual([
      'Project design',
      s.hiddenDocumentName,
      'Validation report',
    ]);
  });

  it('answers one project with its events, oldest first', async () => {
    const { project } = await getOk(t, 'getInternalProject', `/projects/internal/${s.publicProjectOfB}`, examinerToken);
    expect(project.events.map((e) => [e.type, e.previousProjectStatus, e.projectStatus])).toEqual([
      ['status_change', 'submitted', 'validated'],
      ['status_change', 'validated', 'registered'],
    ]);
    const draft = await getOk(t, 'getInternalProject', `/projects/internal/${s.draftProjectId}`, examinerToken);
    expect(draft.project.status).toBe('draft');
    expect(draft.project.events).toEqual([]);
  });

  it('is 404 for an unknown project', async () => {
    await getError(t, '/projects/internal/nope', examinerToken, 404);
  });
});
