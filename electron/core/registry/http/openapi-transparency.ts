// The transparency endpoints as /openapi.json describes them (http/transparency.ts serves them):
// public (no security), under /transparency/v1, with their parameters' bounds and examples.
const integer = (description: string, example: number) => ({
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description,
  examples: [example],
});
const query = (name: string, schema: Record<string, unknown>) => ({ name, in: 'query', required: true, schema });
const errors = Object.fromEntries(
  ['400', '404', '429'].map((code) => [
    code,
    { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/TransparencyError' } } } },
  ]),
);
const base64 = { type: 'string', contentEncoding: 'base64' };
const json = (schema: Record<string, unknown>) => ({ description: 'Success', content: { 'application/json': { schema } } });
const textPlain = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

const operation = (operationId: string, summary: string, parameters: unknown[], success: unknown) => ({
  get: { operationId, summary, tags: ['transparency'], parameters, security: [], responses: { '200': success, ...errors } },
});

export const transparencyErrorSchema = {
  type: 'object',
  required: ['statusCode', 'message', 'error'],
  properties: { statusCode: { type: 'integer' }, message: {}, error: { type: 'string' } },
};

export function transparencyPaths(): Record<string, unknown> {
  const hashes = { type: 'array', items: base64 };
  return {
    '/transparency/v1/key': operation(
      'getTransparencyKey',
      'The note verifier key of the log (name+hex key hash+base64 key)',
      [],
      textPlain('The key'),
    ),
    '/transparency/v1/checkpoint': operation(
      'getTransparencyCheckpoint',
      'The latest checkpoint, a signed note',
      [],
      textPlain('The signed note'),
    ),
    '/transparency/v1/leaves': operation(
      'getTransparencyLeaves',
      'Leaves [start, end) with their canonical bytes; a page may hold fewer than asked, never more',
      [query('start', integer('First leaf index', 0)), query('end', integer('One past the last leaf index', 1))],
      json({
        type: 'object',
        required: ['leaves'],
        properties: {
          leaves: {
            type: 'array',
            items: {
              type: 'object',
              required: ['index', 'data', 'kind', 'id'],
              properties: {
                index: { type: 'integer' },
                data: base64,
                kind: { type: 'string', enum: ['movement', 'audit'] },
                id: { type: 'string' },
              },
            },
          },
        },
      }),
    ),
    '/transparency/v1/proof/inclusion': operation(
      'getTransparencyInclusionProof',
      'RFC 9162 inclusion proof of leaf index in the tree of size leaves',
      [query('index', integer('Leaf index', 0)), query('size', integer('Tree size', 1))],
      json({
        type: 'object',
        required: ['index', 'size', 'hashes'],
        properties: { index: { type: 'integer' }, size: { type: 'integer' }, hashes },
      }),
    ),
    '/transparency/v1/proof/consistency': operation(
      'getTransparencyConsistencyProof',
      'RFC 9162 consistency proof from the tree of from leaves to the tree of to leaves',
      [query('from', integer('Older tree size', 1)), query('to', integer('Newer tree size', 1))],
      json({
        type: 'object',
        required: ['from', 'to', 'hashes'],
        properties: { from: { type: 'integer' }, to: { type: 'integer' }, hashes },
      }),
    ),
    '/transparency/v1/lookup': operation(
      'getTransparencyLeafIndex',
      'The leaf index of a movement (its number), an audit entry or a retirement (its id)',
      [
        query('kind', { type: 'string', enum: ['movement', 'audit', 'retirement'], examples: ['movement'] }),
        query('id', { type: 'string', minLength: 1, maxLength: 200, examples: ['1'] }),
      ],
      json({
        type: 'object',
        required: ['index', 'kind', 'id'],
        properties: { index: { type: 'integer' }, kind: { type: 'string' }, id: { type: 'string' } },
      }),
    ),
  };
}
