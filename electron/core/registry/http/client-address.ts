// The client's address, for the rate limits keyed on it. Behind a load balancer every connection
// comes from the balancer, so one client's failed logins would lock out everyone: with trusted
// proxies listed (`--trusted-proxy`), a connection from one of them is attributed to the address
// its X-Forwarded-For names (the rightmost one that is not itself a listed proxy). X-Forwarded-For
// from anyone else is ignored: a client could write anything there.
import { isIP } from 'node:net';

const plain = (address: string) => address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

export function clientAddress(remote: string | undefined, forwardedFor: string | undefined, trusted: ReadonlySet<string>): string {
  const peer = remote === undefined ? 'unknown' : plain(remote);
  if (!trusted.has(peer) || forwardedFor === undefined) return peer;
  const hops = forwardedFor.split(',').map(plain).slice(-20);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return peer; // a malformed chain: trust none of it
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}

/** The listed proxies, normalized (`::ffff:10.0.0.1` is 10.0.0.1); refuses anything that is not an IP address. */
export function trustedProxies(list: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const entry of list) {
    const address = plain(entry);
    if (isIP(address) === 0) throw new Error(`--trusted-proxy: ${entry} is not an IP address`);
    out.add(address);
  }
  return out;
}

/** The peer's address from Node's socket (@hono/node-server puts the request in `c.env.incoming`). */
export function peerAddressOf(c: { env: unknown }): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}
