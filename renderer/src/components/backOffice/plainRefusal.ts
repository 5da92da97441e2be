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
  receivingOrganizationId: 'Receiving organization',
  verificationBodyId: 'Verification body',
  projectId: 'Project',
  creditId: 'Credit',
  priceInfo: 'Price',
  uri: 'URL',
};

function fieldWords(path: string, words: Record<string, string>): string {
  const parts = path.split('.').filter((p) => p !== 'body' && p !== 'query' && p !== 'params');
  const named = [...parts].reverse().find((p) => !/^\d+$/.test(p));
  if (!named) return '';
  return words[named] ?? FIELD_WORDS[named] ?? humanize(named);
}

/**
 * The ids a registry refusal keeps in brackets after its sentence ("… (organization 5f3c…)"): the
 * sentence names the record already; the ids stay in the message shown under "Details".
 */
const BRACKETED_IDS = / \((?:organization|project|credit) [^()]+\)/g;

/** A refusal about one field of the body ("receivingOrganizationId: Beta AG is not…"): that field, and what it says as a sentence. */
export function refusalOfField(message: string): { field: string; text: string } | null {
  const match = /^([a-z]\w*): (.*)$/s.exec(message);
  if (!match) return null;
  const text = match[2]!.replace(BRACKETED_IDS, '');
  return { field: match[1]!, text: `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}` };
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
  return (lead + [...new Set(lines)].join('; ')).replace(BRACKETED_IDS, '');
}
