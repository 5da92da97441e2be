// A back-office screen's read: loaded when its request changes, reloaded (keeping what is shown)
// after every back-office write done and every finished sync; `source` says whether it came from
// the registry or, offline, from the desk's saved copy (and `fetchedAt` how old that is). A read
// that must be asked once per request (a review's dry run: each one is an audit entry) passes
// `followChanges: false` and is asked again only when its request changes or `reload()` is called.
import type { OperatorReadName } from '@shared/desk/back-office';
import { useLoader } from '@renderer/lib/hooks';
import { readBackOffice, useBackOffice, type BackOfficeRead } from '@renderer/stores/backOffice';

export function useBackOfficeRead<E extends OperatorReadName>(
  endpoint: E,
  request: { params?: Record<string, string>; query?: Record<string, string | number> } = {},
  options: { enabled?: boolean; followChanges?: boolean } = {},
): { data: BackOfficeRead<E> | null; error: unknown; loading: boolean; reload: () => void } {
  const follow = options.followChanges ?? true;
  const version = useBackOffice((s) => (follow ? s.version : 0));
  const key = JSON.stringify([endpoint, request]);
  const enabled = options.enabled ?? true;
  return useLoader(() => (enabled ? readBackOffice(endpoint, request) : Promise.resolve(null as never)), [key, enabled], version);
}
