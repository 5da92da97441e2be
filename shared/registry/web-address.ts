// What the registry accepts as an organization's website: a full http(s) web address with a host
// name (so "not a url" or "example" is refused, and what is stored can be opened as a link).

/**
 * The rule as a pattern JSON Schema can carry too (/openapi.json: no flags, so the letter case of
 * `https` and `localhost` is spelled out; `u` semantics for the letter and digit classes).
 */
const WEB_ADDRESS_SOURCE =
  '[Hh][Tt][Tt][Pp][Ss]?://(?:[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+)(?::\\d{1,5})?(?:[/?#]\\S*)?';
const WEB_ADDRESS = new RegExp(`^${WEB_ADDRESS_SOURCE}$`, 'u');

/** A website field's value as JSON Schema states it: empty, or a web address. */
export const WEBSITE_PATTERN = `^(?:|${WEB_ADDRESS_SOURCE})$`;

export function isWebAddress(text: string): boolean {
  return WEB_ADDRESS.test(text);
}

export const WEB_ADDRESS_MESSAGE = 'must be a full web address, for example https://example.org';
