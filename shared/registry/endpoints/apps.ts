// The seed interface, apps, installations and their tokens (4.6).
import { z } from 'zod';
import { pageQuery, noQuery, noParams, idString, define, anyToken } from './define';
import { emptyBody } from './bodies';

export const appEndpoints = {
  // 4.6 Apps
  createAppAccessToken: define({
    method: 'POST',
    path: '/app/accessTokens',
    summary: 'An app access token, for endpoints that do not touch organization resources',
    params: noParams,
    query: noQuery,
    body: emptyBody,
    response: (s) => s.accessToken,
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
  createInstallationAccessToken: define({
    method: 'POST',
    path: '/app/installations/{installationId}/accessTokens',
    summary: 'An installation access token for one organization',
    params: z.object({ installationId: idString('installationId') }),
    query: noQuery,
    body: emptyBody,
    response: (s) => s.accessToken,
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
  revokeAccessToken: define({
    method: 'DELETE',
    path: '/app/installations/token',
    summary: 'Revoke the access token sent in the Authorization header',
    params: noParams,
    query: noQuery,
    response: (s) => s.object({ success: z.literal(true) }),
    auth: anyToken,
    tags: ['apps'],
  }),
  listInstallations: define({
    method: 'GET',
    path: '/app/installations',
    summary: "The app's installations",
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, installations: z.array(s.installation) }),
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
  getInstallation: define({
    method: 'GET',
    path: '/app/installations/{installationId}',
    summary: 'One installation of the app',
    params: z.object({ installationId: idString('installationId') }),
    query: noQuery,
    response: (s) => s.installation,
    auth: { kind: 'appJwt' },
    tags: ['apps'],
  }),
} as const;
