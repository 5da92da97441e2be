// The registry's own rules for a sale's price and currency and an organization's website (the
// shared schemas its handlers parse with): a price is kept exactly as typed or refused, a currency
// is an ISO 4217 code, a website is a full web address.
import { describe, expect, it } from 'vitest';
import { finishBody } from '@shared/registry/endpoints';
import { createOrganizationInput, createProjectInput } from '@shared/registry/operator-inputs';
import { priceKeptExactly, typedPriceKeptExactly } from '@shared/registry/price';

const finish = (priceInfo: unknown) => finishBody.safeParse({ receiverId: 'org-1', priceInfo });

describe('a price the registry keeps', () => {
  it('keeps what a JSON number holds exactly, and refuses what it rounded', () => {
    expect(finish({ price: 12.3, currency: 'EUR' }).success).toBe(true);
    expect(finish({ price: 999_999_999_999_999, currency: 'USD' }).success).toBe(true);
    expect(finish({ price: 0.1 + 0.2, currency: 'USD' }).success).toBe(false);
    const rounded = finish({ price: JSON.parse('99999999999999999999') as number, currency: 'USD' });
    expect(rounded.success).toBe(false);
    expect(JSON.stringify(rounded.error?.issues)).toContain('at most 15 digits');
  });

  it('judges the typed digits the same way in the desk', () => {
    expect(typedPriceKeptExactly('99999999999999999999', '')).toBe(false);
    expect(typedPriceKeptExactly('0012', '500')).toBe(true);
    expect(typedPriceKeptExactly('1', '12345678901234')).toBe(true);
    expect(typedPriceKeptExactly('1', '123456789012345')).toBe(false);
    expect(priceKeptExactly(Number('1.12345678901234'))).toBe(true);
  });

  it('takes an ISO 4217 currency code only', () => {
    expect(finish({ price: 1, currency: 'KES' }).success).toBe(true);
    expect(finish({ price: 1, currency: 'ZZZ$$' }).success).toBe(false);
    expect(finish({ price: 1, currency: 'ZZZ' }).success).toBe(false);
  });
});

describe("an organization's website", () => {
  const organization = (website: string) => createOrganizationInput.safeParse({ fullName: 'Kenya Growers', countryCode: 'KE', website });
  it('is empty or a full web address', () => {
    expect(organization('').success).toBe(true);
    expect(organization('https://kenya-growers.example.org/about').success).toBe(true);
    expect(organization('not a url').success).toBe(false);
    expect(organization('example.org').success).toBe(false);
    expect(organization('ftp://example.org').success).toBe(false);
    expect(organization('https://exa mple.org').success).toBe(false);
  });
});

describe('text lengths as the published document counts them', () => {
  const fullNameIssues = (fullName: string) =>
    (createOrganizationInput.safeParse({ fullName, countryCode: 'KE' }).error?.issues ?? []).filter((i) => i.path[0] === 'fullName');

  it('counts characters, not UTF-16 units: an emoji is one, as JSON Schema maxLength says', () => {
    expect(fullNameIssues('😀'.repeat(200))).toEqual([]);
    expect(fullNameIssues('é'.repeat(200))).toEqual([]);
    expect(fullNameIssues('😀'.repeat(201)).map((i) => i.message)).toEqual(['must be at most 200 characters']);
  });
});

describe("a project's number", () => {
  it('is at most 9 digits, which both engines keep (PostgreSQL indexes it as a 32-bit integer)', () => {
    const numIssues = (num: string) =>
      (createProjectInput.safeParse({ num }).error?.issues ?? []).filter((i) => i.path[0] === 'num').map((i) => i.message);
    expect(numIssues('999999999')).toEqual([]);
    expect(numIssues('4000000000')).toEqual(['must be a string of at most 9 digits']);
  });
});
