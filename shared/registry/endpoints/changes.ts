// Beyond the seed interface: the changes feed the desk syncs from.
import { z } from 'zod';
import { DEFAULT_FEED_LIMIT, FEED_KEY_KINDS, MAX_FEED_LIMIT } from '../vocabulary';
import { queryInt, noParams, define, anyToken, idString } from './define';
import { changesResponse } from './responses';

export const changesEndpoints = {
  // Beyond the interface: the changes feed (the desk's incremental sync; README "The changes feed")
  getChanges: define({
    method: 'GET',
    path: '/sync/v1/changes',
    summary: 'What changed since a cursor, as the caller may see it: resources in the shapes of their endpoints, and removals',
    params: noParams,
    query: z.object({
      cursor: z
        .string()
        .max(400)
        .optional()
        .meta({
          description:
            'Opaque: the cursor of the previous answer, passed back unchanged; absent or empty: a snapshot of everything visible. ' +
            'It never expires (the registry keeps the newest change of every resource, so it can answer from any point it handed out). ' +
            'One this registry did not make, or one ahead of its changes (another registry, a restored backup), is 400: start again without one.',
        }),
      limit: queryInt(
        1,
        DEFAULT_FEED_LIMIT,
        `Resources per answer, at most (a page ends before a second account inventory); larger values are clamped to ${MAX_FEED_LIMIT}`,
      )
        .transform((n) => Math.min(n, MAX_FEED_LIMIT))
        .optional()
        .default(DEFAULT_FEED_LIMIT),
      kinds: z
        .string()
        .regex(new RegExp(`^(${FEED_KEY_KINDS.join('|')})(,(${FEED_KEY_KINDS.join('|')}))*$`), {
          error: `a comma-separated list of ${FEED_KEY_KINDS.join(', ')}`,
        })
        .optional()
        .meta({
          description: `Only these kinds of resource (comma-separated: ${FEED_KEY_KINDS.join(', ')}); absent: all. A cursor goes on with the kinds it was read with.`,
        }),
      organizationId: idString('organizationId')
        .optional()
        .meta({
          description:
            "Only this organization's record and warehouse among the organization and warehouse keys (the other kinds are not narrowed): " +
            'an installation reads what only its own token may see, without a second copy of every public organization. ' +
            'A cursor goes on with the organization it was read with.',
        }),
    }),
    response: (s) => changesResponse(s),
    auth: anyToken,
    tags: ['sync'],
  }),
} as const;
