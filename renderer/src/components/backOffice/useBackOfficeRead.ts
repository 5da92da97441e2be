// A back-office screen's read: loaded when its request changes, reloaded (keeping what is shown)
// after every back-office write done and every finished sync; `source` says whether it came from
// the registry or, offline, from the desk's saved copy (and `fetchedAt` how old that is).
import type { OperatorReadName } from '@shared/desk/back-office';
import { useLoader } from '@renderer/lib/hooks';
import { readBackOffice, useBackOffice, type BackOfficeRead } from '@renderer/stores/backOffice';

export function useBackOfficeRead<E extends OperatorReadName>(
  endpoint: E,
  request: { params?: Record<string, string>; query?: Record<string, string | number> } = {},
  options: { enabled?: boolean } = {},
): { data: BackOfficeRead<E> | null; error: unknown; loading: boolean; reload: () => void } {
  const version = useBackOffice((s) => s.version);
  const key = JSON.stringify([endpoint, request]);
  const enabled = options.enabled ?? true;
  return useLoader(() => (enabled ? readBackOffice(endpoint, request) : Promise.resolve(null as never)), [key, enabled], version);
}
