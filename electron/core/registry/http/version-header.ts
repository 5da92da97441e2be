// The version header a client may send (once, naming the one supported version).

/** How many times the request carries header `name` (Node's raw headers; 0 or 1 when not known). */
export function headerCount(c: { env: unknown; req: { header(name: string): string | undefined } }, name: string): number {
  const raw = (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.header(name) === undefined ? 0 : 1;
  const lower = name.toLowerCase();
  return raw.filter((value, i) => i % 2 === 0 && value.toLowerCase() === lower).length;
}
