// What the registry accepts as an organization's website: a full http(s) web address with a host
// name (so "not a url" or "example" is refused, and what is stored can be opened as a link).

const WEB_ADDRESS = /^https?:\/\/(localhost|[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+)(:\d{1,5})?([/?#]\S*)?$/iu;

export function isWebAddress(text: string): boolean {
  return WEB_ADDRESS.test(text);
}

export const WEB_ADDRESS_MESSAGE = 'must be a full web address, for example https://example.org';
