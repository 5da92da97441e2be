// zod's problems in plain words (issue 32): what reaches a client names the field and says what it
// needs, never zod's own English; a message a schema states itself is kept as it is.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodMessages } from '@platform/zod-messages';
import { createProjectInput, transferCreditsInput } from '@shared/registry/operator-inputs';
import { previewQueries } from '@shared/registry/operator-previews';

const messagesOf = (schema: z.ZodType, value: unknown, prefix = 'body') => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a refusal');
  return zodMessages(result.error.issues, prefix);
};

const ZOD_WORDING =
  /Invalid input|Invalid option|Invalid (string|number|UUID|ISO|discriminator)|Too (big|small)|Unrecognized key|received|nonoptional/;

describe('zod messages in plain words', () => {
  it('says a missing field is required, also where a schema made an optional one required', () => {
    expect(messagesOf(previewQueries.transfer, { creditId: 'c', amount: '1' }, 'query')).toEqual([
      'query.from: is required',
      'query.to: is required',
    ]);
  });

  it('says what each field needs in words', () => {
    const schema = z.strictObject({
      name: z.string().max(3),
      count: z.number().int().min(1),
      share: z.number().max(100),
      tags: z.array(z.string()).max(2),
      status: z.enum(['draft', 'submitted']),
      id: z.uuid(),
      when: z.union([z.iso.datetime({ offset: true }), z.iso.date()]),
      nested: z.object({ on: z.boolean() }),
    });
    const said = messagesOf(schema, {
      name: 'four',
      count: 1.5,
      share: 101,
      tags: ['a', 'b', 'c'],
      status: 'nope',
      id: 'x',
      when: 'soon',
      nested: { on: 'yes' },
      extra: 1,
    });
    expect(said).toEqual([
      'body.name: must be at most 3 characters',
      'body.count: must be a whole number',
      'body.share: must be at most 100',
      'body.tags: must have at most 2 items',
      'body.status: must be one of draft, submitted',
      'body.id: must be a UUID such as 5fe79b21-6e82-4c4a-92c1-1ee309742f5f',
      'body.when: must be a date and time with its offset, such as 2024-01-31T12:00:00Z, or a date such as 2024-01-31',
      'body.nested.on: must be true or false, not text',
      'body: unknown field extra (remove it)',
    ]);
  });

  it("names an account's kind among those there are, and keeps a schema's own words", () => {
    const said = messagesOf(transferCreditsInput, { from: { kind: 'pocket' }, to: { kind: 'buffer' }, creditId: 'c', amount: 0 });
    expect(said).toEqual([
      'body.from.kind: must be one of inventory, warehouse, buffer, adjustment, registry, wallet',
      'body.amount: must be greater than 0',
    ]);
    expect(messagesOf(createProjectInput, { fullName: '  ' }).join('\n')).toContain('body.fullName: must not be empty');
    for (const message of messagesOf(createProjectInput, { location: { lat: 'n' }, num: 5, documentation: [{}] })) {
      expect(message).not.toMatch(ZOD_WORDING);
    }
  });
});
