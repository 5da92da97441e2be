// One call of the desk API: validated against the contract, then given to its method's handler.
import { deskApi, deskMethods, type DeskMethod, type DeskResult } from '@shared/desk/api';
import { invalidInput, toDeskError } from '@desk/errors';
import type { Handlers } from './context';

// A handler answers a value or a promise of one.
type Handler = (input: never) => unknown;
const knownMethods = new Set<string>(deskMethods);

/** Validates a call against the contract and runs its handler; errors become the desk's error codes. */
export function dispatcher(handlers: Handlers, log: (line: string) => void) {
  return async function dispatch(method: string, rawInput: unknown): Promise<DeskResult<unknown>> {
    if (!knownMethods.has(method))
      return { ok: false, error: { code: 'invalid_input', message: `Unknown desk method ${JSON.stringify(method)}` } };
    const definition = deskApi[method as DeskMethod];
    const parsed = definition.input.safeParse(rawInput ?? {});
    if (!parsed.success) return { ok: false, error: invalidInput(parsed.error.issues, `Invalid input for ${method}`).toDeskError() };
    try {
      const value = await (handlers[method as DeskMethod] as Handler)(parsed.data as never);
      return { ok: true, value };
    } catch (error) {
      const deskError = toDeskError(error);
      if (deskError.code === 'internal')
        log(`${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { ok: false, error: deskError };
    }
  };
}
