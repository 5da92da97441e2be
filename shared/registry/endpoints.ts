// The one table of the registry's HTTP interface. The server builds its routes, validation and
// permission checks from it; the desk's typed client builds its calls from it; /openapi.json is
// generated from it. Adding an endpoint anywhere else is a bug.
import { projectEndpoints } from './endpoints/projects';
import { retirementEndpoints } from './endpoints/retirements';
import { creditEndpoints } from './endpoints/credits';
import { warehouseEndpoints } from './endpoints/warehouse';
import { appEndpoints } from './endpoints/apps';
import { organizationEndpoints } from './endpoints/organizations';
import { changesEndpoints } from './endpoints/changes';
import { operatorOrganizationEndpoints } from './endpoints/operator-organizations';
import { operatorProjectEndpoints } from './endpoints/operator-projects';
import { operatorLedgerEndpoints } from './endpoints/operator-ledger';
import { operatorAccountEndpoints } from './endpoints/operator-accounts';
import { operatorAppEndpoints } from './endpoints/operator-apps';
import { operatorOperatorEndpoints } from './endpoints/operator-operators';
import { z } from 'zod';

export type { EndpointAuth, EndpointDefinition, HttpMethod } from './endpoints/define';
export { pageQuery, queryIntegers } from './endpoints/define';
export { MAX_AMOUNT_TONNES, SIGNATURE_PATTERN, finalizeBody, finishBody, finishRetireBody, reserveBody } from './endpoints/bodies';
export { feedItem } from './endpoints/responses';

/** Every entry, area by area; the order is the order of routes and of /openapi.json. */
export const endpoints = {
  ...projectEndpoints,
  ...retirementEndpoints,
  ...creditEndpoints,
  ...warehouseEndpoints,
  ...appEndpoints,
  ...organizationEndpoints,
  ...changesEndpoints,
  ...operatorOrganizationEndpoints,
  ...operatorProjectEndpoints,
  ...operatorLedgerEndpoints,
  ...operatorAccountEndpoints,
  ...operatorAppEndpoints,
  ...operatorOperatorEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;
export const endpointIds = Object.keys(endpoints) as EndpointId[];

export type EndpointParams<K extends EndpointId> = z.output<Endpoints[K]['params']>;
export type EndpointQuery<K extends EndpointId> = z.output<Endpoints[K]['query']>;
/** The parsed body of an endpoint that takes one (`undefined` for those that take none). */
export type EndpointBody<K extends EndpointId> = Endpoints[K] extends { body?: infer B }
  ? B extends z.ZodType
    ? z.output<B>
    : undefined
  : undefined;
export type EndpointResponse<K extends EndpointId> = z.output<ReturnType<Endpoints[K]['response']>>;

/** Fills `{name}` parameters of a contract path. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
