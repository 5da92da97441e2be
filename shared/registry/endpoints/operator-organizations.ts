// The operator interface: tokens, the operator's own account, organizations.
import { z } from 'zod';
import { operatorResources } from '../operator-resources';
import * as inputs from '../operator-inputs';
import { pageQuery, noQuery, noParams, idString, define, viewer, manager } from './define';
import { refusals, refused } from './refusals';
import { emptyBody } from './bodies';

export const operatorOrganizationEndpoints = {
  // Operator interface (the registry's back office)
  createOperatorToken: define({
    method: 'POST',
    path: '/operator/v1/tokens',
    summary: "An operator token (1 hour), for a JWT signed with the operator's private key",
    params: noParams,
    query: noQuery,
    body: emptyBody,
    response: (s) => operatorResources(s).operatorToken,
    auth: { kind: 'operatorJwt' },
    tags: ['operator'],
    status: 201,
  }),
  operatorGetSelf: define({
    method: 'GET',
    path: '/operator/v1/me',
    summary: "The calling operator's own account (its name and role), for any role",
    params: noParams,
    query: noQuery,
    response: (s) => s.object({ operator: operatorResources(s).operator }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorListOrganizations: define({
    method: 'GET',
    path: '/operator/v1/organizations',
    summary: 'Every organization, public or not, with its accounts and balances, projects and installations',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, organizations: z.array(operatorResources(s).organization) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorGetOrganization: define({
    method: 'GET',
    path: '/operator/v1/organizations/{organizationId}',
    summary: 'One organization with its accounts and balances, projects and installations',
    params: z.object({ organizationId: idString('organizationId') }),
    query: noQuery,
    response: (s) => s.object({ organization: operatorResources(s).organization }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreateOrganization: define({
    method: 'POST',
    path: '/operator/v1/organizations',
    summary: 'Create an organization',
    params: noParams,
    query: noQuery,
    body: inputs.createOrganizationInput.meta({
      examples: [{ fullName: 'Kenya Growers Ltd', countryCode: 'KE', type: 'projectProponent' }],
    }),
    response: (s) => s.object({ organization: operatorResources(s).organization }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'organizations.create',
    refusals: [refusals.idTaken('organization'), refused(409, "isRegistry is true and the registry's own organization already exists")],
  }),
  operatorUpdateOrganization: define({
    method: 'PATCH',
    path: '/operator/v1/organizations/{organizationId}',
    summary: 'Edit an organization: every field given replaces the stored one (null clears an optional one)',
    params: z.object({ organizationId: idString('organizationId') }),
    query: noQuery,
    body: inputs.updateOrganizationBody.meta({
      examples: [{ fullName: 'Kenya Growers Ltd', city: 'Nairobi', website: null }],
    }),
    response: (s) => s.object({ id: z.string(), changed: z.array(z.string()) }),
    auth: manager,
    tags: ['operator'],
    audit: 'organizations.update',
    refusals: [refused(404, 'the organization does not exist')],
  }),
  operatorSetOrganizationVerified: define({
    method: 'POST',
    path: '/operator/v1/organizations/{organizationId}/verification',
    summary: "Record (or withdraw) an organization's business verification",
    params: z.object({ organizationId: idString('organizationId') }),
    query: noQuery,
    body: inputs.setOrganizationVerifiedInput.omit({ organizationId: true }).meta({ examples: [{ verified: true }] }),
    response: (s) => s.object({ id: z.string(), verified: z.boolean() }),
    auth: manager,
    tags: ['operator'],
    audit: 'organizations.setVerified',
    refusals: [refused(404, 'the organization does not exist')],
  }),
} as const;
