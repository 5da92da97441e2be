// A refusal as people read it: the desk's and the registry's messages name fields by their request
// path ("operatorCreateOrganization: invalid body: body.countryCode: unknown country code"); the
// plain form names the field in words, once each ("Country code: unknown country code"). The
// original stays available behind a "Details" disclosure.
import { humanize } from '@renderer/lib/format';

/** Words for request fields whose name alone reads badly. */
const FIELD_WORDS: Record<string, string> = {
  fullName: 'Name',
  countryCode: 'Country',
  publicKeyPem: 'Public key',
  startDate: 'Start date',
  creditingPeriodStartDate: 'Crediting period start',
  organizationId: 'Organization',
  priceInfo: 'Price',
  uri: 'URL',
};

function fieldWords(path: string, words: Record<string, string>): string {
  const parts = path.split('.').filter((p) => p !== 'body' && p !== 'query' && p !== 'params');
  const named = [...parts].reverse().find((p) => !/^\d+$/.test(p));
  if (!named) return '';
  return words[named] ?? FIELD_WORDS[named] ?? humanize(named);
}

/** `words`: the form's own labels of its fields, where they differ from the usual ones. */
export function plainRefusal(message: string, words: Record<string, string> = {}): string {
  // "<endpoint>: invalid body: a; b" or "The registry refused the request: a; b"
  const body = message.replace(/^\w+: invalid (body|query|params|path): /, '');
  // A sentence before the list ("The registry refused the request: ") is kept as it is.
  const lead = /^[A-Z][^:]*: /.exec(body)?.[0] ?? '';
  const lines = body
    .slice(lead.length)
    .split('; ')
    .map((line) => {
      const match = /^((?:body|query|params)(?:\.[\w-]+)*|[a-z]\w*(?:\.[\w-]+)+|[a-z]\w*): (.*)$/.exec(line);
      if (!match) return line;
      const field = fieldWords(match[1]!, words);
      return field ? `${field}: ${match[2]}` : match[2]!;
    });
  return lead + [...new Set(lines)].join('; ');
}
