// The refusals the operator interface's writes share (see `Refusal` in define.ts): each a status and
// the condition, in the words /openapi.json shows. An operation lists the ones its code can answer to
// a body its schema accepts; a test sends schema-valid bodies and fails on any other 4xx.
import type { Refusal } from './define';

export const refused = (status: Refusal['status'], when: string): Refusal => ({ status, when });

export const refusals = {
  noOrganization: refused(404, 'an organization it names does not exist'),
  noCredit: refused(404, 'the credit does not exist'),
  noProject: refused(404, 'the project does not exist'),
  noApp: refused(404, 'the app does not exist'),
  noInstallation: refused(404, 'the installation does not exist'),
  noOperator: refused(404, 'the operator does not exist'),
  notEnough: refused(409, 'the account the credits come from holds less than the amount of this credit'),
  accountCap: refused(
    409,
    'the receiving account would hold more than 9,000,000,000 t over all its credits together (the message gives the figures)',
  ),
  idTaken: (what: string) => refused(409, `the id it gives is already the id of another ${what}`),
  rsaKey: refused(400, 'publicKeyPem is not a PEM public key, or not RSA, or shorter than 2048 bits'),
  documentTaken: refused(409, 'a document id it gives already belongs to another document of this or another project'),
  repeatedId: refused(
    400,
    'an id appears twice in one list of the body: proponentIds, validatorIds, otherBenefits, or documentation with kmlFile (the message names both places)',
  ),
} as const;
