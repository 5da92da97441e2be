// Editing through the operator interface over real HTTP: a draft project's and an organization's
// every field (idempotent, one audited entry, read back as edited), refused edits that change
// nothing, a status change's comment kept in the history, and the audit log's filters over them.
import { beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { endpoints } from '@shared/registry/endpoints';
import type { Fixture } from '@test/support/fixture';
import { auditRows, type TestOperator } from '@test/support/operators';
import { useOperatorWritesWorld, type OperatorWritesWorld } from '@test/support/operator-writes-world';
import type { TestRegistry } from '@test/support/registry';

const { world, post, expectAuditedEdit, expectRefusedEdits } = useOperatorWritesWorld();
let t: TestRegistry;
let f: Fixture;
let manager: TestOperator;
let tokens: OperatorWritesWorld['tokens'];
beforeAll(() => void ({ t, f, manager, tokens } = world));

describe('operator projects: editing a draft, status comments, and the audit filters', () => {
  const draftBody = {
    fullName: 'Edited Mangroves',
    startDate: '2021-01-01',
    creditingPeriodStartDate: '2021-06-01',
    countryCode: 'KE',
    city: 'Mombasa',
    sector: { id: 'forestry', title: 'Forestry and land use' },
    methodology: { id: 'icr-ar-001', title: 'Afforestation and reforestation' },
    type: { id: 'removal', title: 'Removal' },
    organizationId: '',
  };
  let projectId: string;

  it('edits every field of a draft (idempotent, one audited entry) and the project reads back as edited', async () => {
    const created = await post('/operator/v1/projects', { ...draftBody, organizationId: f.orgA }, tokens.manager, 'edit-create');
    expect(created.status).toBe(201);
    projectId = ((await created.json()) as { id: string }).id;
    const edit = {
      fullName: 'Mangroves of Lamu',
      description: 'Restores mangroves.',
      shortDescription: 'Mangroves',
      startDate: '2022-02-01',
      creditingPeriodStartDate: '2022-03-01T00:00:00Z',
      estimatedAnnualMitigations: ['1200', null],
      city: null,
      state: 'Lamu',
      thumbnail: 'https://example.org/thumb.png',
      countryCode: 'TZ',
      sector: { id: 'blue-carbon', title: 'Blue carbon' },
      methodology: { id: 'vm0033', title: 'Tidal wetland restoration' },
      type: { id: 'removal', title: 'Removal', description: 'Removes CO2' },
      location: { lat: -2.27, lng: 40.9 },
      organizationId: f.orgB,
      proponentIds: [f.orgA],
      validatorIds: [f.validatorId],
      documentation: [
        { uri: 'https://example.org/pdd.pdf', type: 'projectDesign', name: 'Project design', isPublic: true },
        { uri: 'https://example.org/internal.pdf', type: 'monitoringReport', name: 'Internal report', isPublic: false },
      ],
      kmlFile: { uri: 'https://example.org/area.kml', type: 'kml', name: 'Area', isPublic: true },
      otherBenefits: [{ id: 3, title: 'Biodiversity', checked: true, description: 'Fish nurseries' }],
    };
    await expectAuditedEdit('/operator/v1/projects', projectId, edit, 'edit-1', 'projects.update', (json) =>
      endpoints.operatorUpdateProject.response(strict).parse(json),
    );

    const read = await t.call(`/operator/v1/projects/${projectId}`, { token: tokens.viewer });
    const { project, details } = endpoints.operatorGetProject.response(strict).parse(await read.json());
    expect(project).toMatchObject({ status: 'draft', organizationId: f.orgB, countryCode: 'TZ' });
    expect(details).toMatchObject({
      fullName: 'Mangroves of Lamu',
      description: 'Restores mangroves.',
      shortDescription: 'Mangroves',
      startDate: '2022-02-01T00:00:00.000Z',
      creditingPeriodStartDate: '2022-03-01T00:00:00.000Z',
      estimatedAnnualMitigations: ['1200', null],
      state: 'Lamu',
      thumbnail: 'https://example.org/thumb.png',
      sector: { id: 'blue-carbon', title: 'Blue carbon' },
      methodology: { id: 'vm0033', title: 'Tidal wetland restoration' },
      location: { lat: -2.27, lng: 40.9 },
      kmlFile: { uri: 'https://example.org/area.kml', name: 'Area' },
      otherBenefits: [{ id: 3, title: 'Biodiversity', checked: true, description: 'Fish nurseries' }],
    });
    expect(details.city).toBeUndefined();
    expect(details.proponents.map((o) => o.id)).toEqual([f.orgB, f.orgA]);
    expect(details.validators.map((o) => o.id)).toEqual([f.validatorId]);
    expect(details.documentation.map((d) => [d.name, d.isPublic])).toEqual([
      ['Project design', true],
      ['Internal report', false],
    ]);

    // a partial edit changes only what it names; null removes the location and the KML file
    const partial = await post(`/operator/v1/projects/${projectId}`, { location: null, kmlFile: null }, tokens.manager, 'edit-2', 'PATCH');
    expect(partial.status).toBe(200);
    const reread = endpoints.operatorGetProject
      .response(strict)
      .parse(await (await t.call(`/operator/v1/projects/${projectId}`, { token: tokens.viewer })).json());
    expect(reread.details.location).toBeUndefined();
    expect(reread.details.kmlFile).toBeUndefined();
    expect(reread.details.documentation).toHaveLength(2);
    expect(reread.details.fullName).toBe('Mangroves of Lamu');
  });

  it('refuses an edit that names the status, changes nothing, names no project or an unknown organization', async () => {
    await expectRefusedEdits('/operator/v1/projects', projectId, 'projects.update', [
      [{ status: 'validated' }, 400, 'status'],
      [{}, 400, 'nothing to change'],
      [{ validatorIds: ['no-such-org'] }, 404, 'no-such-org'],
      [{ location: { lat: 120, lng: 0 } }, 400, 'lat'],
    ]);
  });

  it('keeps the comment of each status change in the history, and edits drafts only', async () => {
    const moved = await post(
      `/operator/v1/projects/${projectId}/status`,
      { status: 'submitted', comment: 'Design document complete' },
      tokens.manager,
      'status-1',
    );
    expect(moved.status).toBe(200);
    const { project } = endpoints.operatorGetProject
      .response(strict)
      .parse(await (await t.call(`/operator/v1/projects/${projectId}`, { token: tokens.viewer })).json());
    expect(project.history.at(-1)).toMatchObject({
      projectStatus: 'submitted',
      previousProjectStatus: 'draft',
      comment: 'Design document complete',
    });
    const list = endpoints.operatorListProjects
      .response(strict)
      .parse(await (await t.call('/operator/v1/projects?status=submitted', { token: tokens.viewer })).json());
    expect(list.projects.find((p) => p.id === projectId)?.history.at(-1)?.comment).toBe('Design document complete');

    const late = await post(`/operator/v1/projects/${projectId}`, { fullName: 'Too late' }, tokens.manager, 'edit-3', 'PATCH');
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toMatch(/Only a draft project can be edited/);
  });

  it('filters the audit log by outcome with operator, action and a date range, paged', async () => {
    const query = (q: string) => t.call(`/operator/v1/audit?${q}`, { token: tokens.viewer });
    const refused: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await query(
        `action=projects.update&outcome=refused&operatorId=${manager.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      const page = endpoints.operatorSearchAudit.response(strict).parse(await res.json());
      for (const e of page.entries) expect(e).toMatchObject({ action: 'projects.update', outcome: 'refused', operatorId: manager.id });
      refused.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    const expected = auditRows(t.registry).filter(
      (r) => r.action === 'projects.update' && r.outcome === 'refused' && r.operator_id === manager.id,
    ).length;
    expect(refused).toHaveLength(expected);
    expect(expected).toBeGreaterThanOrEqual(5);

    const now = t.registry.clock.now();
    const inRange = endpoints.operatorSearchAudit
      .response(strict)
      .parse(
        await (
          await query(
            `outcome=succeeded&targetId=${projectId}&from=${new Date(now - 60_000).toISOString()}&to=${new Date(now + 1).toISOString()}`,
          )
        ).json(),
      );
    expect(inRange.entries.map((e) => e.action).sort()).toEqual([
      'projects.create',
      'projects.setStatus',
      'projects.update',
      'projects.update',
    ]);
    const empty = await query(`outcome=succeeded&targetId=${projectId}&to=${new Date(now - 60_000).toISOString()}`);
    expect(endpoints.operatorSearchAudit.response(strict).parse(await empty.json()).entries).toEqual([]);
    expect((await query('outcome=maybe')).status).toBe(400);
  });
});

describe('operator organizations: editing one', () => {
  let organizationId: string;
  const read = async () =>
    endpoints.operatorGetOrganization
      .response(strict)
      .parse(await (await t.call(`/operator/v1/organizations/${organizationId}`, { token: tokens.viewer })).json()).organization;

  it('edits every field (idempotent, one audited entry), null clears an optional one, and it reads back as edited', async () => {
    const created = await post(
      '/operator/v1/organizations',
      { fullName: 'Lamu Growers', countryCode: 'KE', city: 'Lamu', website: 'https://lamu.example', isPublic: true },
      tokens.manager,
      'org-edit-create',
    );
    expect(created.status).toBe(201);
    organizationId = endpoints.operatorCreateOrganization.response(strict).parse(await created.json()).organization.id;
    const edit = {
      fullName: 'Lamu Mangrove Growers',
      type: 'buyer',
      countryCode: 'TZ',
      city: 'Tanga',
      zip: '21101',
      physicalAddress: '1 Harbour Road',
      registrationNumber: 'TZ-123',
      website: null,
      logo: 'https://lamu.example/logo.png',
      organizationIndustries: { code: '0210', name: 'Forestry' },
      isPublic: false,
    };
    await expectAuditedEdit('/operator/v1/organizations', organizationId, edit, 'org-edit-1', 'organizations.update', (json) =>
      endpoints.operatorUpdateOrganization.response(strict).parse(json),
    );

    // it reads back as sent, the cleared website as ''
    expect(await read()).toMatchObject({ ...edit, website: '', isVerified: false });

    // a partial edit changes only what it names
    const partial = await post(`/operator/v1/organizations/${organizationId}`, { city: null }, tokens.manager, 'org-edit-2', 'PATCH');
    expect(partial.status).toBe(200);
    expect(await read()).toMatchObject({ city: '', fullName: 'Lamu Mangrove Growers', zip: '21101' });
  });

  it('refuses the verification, an unknown field, nothing to change and a bad value: 400, nothing changed', async () => {
    const before = await read();
    await expectRefusedEdits('/operator/v1/organizations', organizationId, 'organizations.update', [
      [{ verified: true }, 400, 'verified'],
      [{ isRegistry: true }, 400, 'isRegistry'],
      [{ fullName: 'X', color: 'red' }, 400, 'color'],
      [{}, 400, 'nothing to change'],
      [{ fullName: null }, 400, 'fullName'],
      [{ countryCode: 'ZZ' }, 400, 'country'],
    ]);
    expect(await read()).toEqual(before);
  });
});
