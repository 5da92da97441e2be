// An HTTP answer that must be the registry's error body with a given status.
import { expect } from 'vitest';
import { strict } from '@shared/registry/resources';

/** Checks the status (naming the body when it differs) and the error body's statusCode; returns the body. */
export async function expectError(res: Response, status: number) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = strict.errorBody.parse(JSON.parse(text));
  expect(body.statusCode).toBe(status);
  return body;
}
