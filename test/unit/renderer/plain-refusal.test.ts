// Refusals in the field's own words, once each (issue 30): the request paths of the desk's and the
// registry's messages become the field names people see on the form.
import { describe, expect, it } from 'vitest';
import { plainRefusal, refusalOfField } from '@renderer/components/backOffice/plainRefusal';

describe('plainRefusal', () => {
  it("names the field in words, once, without the endpoint's name", () => {
    expect(
      plainRefusal(
        'operatorCreateOrganization: invalid body: body.countryCode: unknown country code; body.countryCode: unknown country code',
      ),
    ).toBe('Country: unknown country code');
    expect(plainRefusal('fullName: must not be empty')).toBe('Name: must not be empty');
    expect(plainRefusal('startDate: Invalid input; documentation.0.uri: must be a URL')).toBe(
      'Start date: Invalid input; URL: must be a URL',
    );
  });

  it("keeps the registry's sentence and plain messages as they are", () => {
    expect(plainRefusal('The registry refused the request: body.website: must be a full web address')).toBe(
      'The registry refused the request: Website: must be a full web address',
    );
    expect(plainRefusal('The registry does not allow this: the key is too short')).toBe(
      'The registry does not allow this: the key is too short',
    );
  });

  it('says a ledger refusal by the names it gives, the ids in brackets left for Details', () => {
    const message =
      'receivingOrganizationId: Beta Buyers AG is not a proponent of project 1 · Kilimanjaro Reforestation; credits are ' +
      'issued only to its proponents (organization 80262f6e-400f-4c17-b9e6-f27b879acb33)';
    expect(plainRefusal(message)).toBe(
      'Receiving organization: Beta Buyers AG is not a proponent of project 1 · Kilimanjaro Reforestation; credits are issued only to its proponents',
    );
    expect(refusalOfField(message)).toEqual({
      field: 'receivingOrganizationId',
      text: 'Beta Buyers AG is not a proponent of project 1 · Kilimanjaro Reforestation; credits are issued only to its proponents.',
    });
    expect(refusalOfField('The registry is read-only')).toBeNull();
  });
});
