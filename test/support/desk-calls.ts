// Calling the desk service the way the renderer does, for tests: `ok` answers the value checked
// against the contract's output schema (or throws naming the error), `fails` the typed error.
import { expect } from 'vitest';
import { deskApi, type DeskError, type DeskMethod, type DeskOutput } from '@shared/desk/api';
import type { DeskService } from '@desk/service';

export function deskCalls(desk: () => DeskService) {
  return {
    async ok<M extends DeskMethod>(method: M, input: unknown): Promise<DeskOutput<M>> {
      const result = await desk().dispatch(method, input);
      if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
      return deskApi[method].output.parse(result.value) as DeskOutput<M>;
    },
    async fails(method: DeskMethod, input: unknown): Promise<DeskError> {
      const result = await desk().dispatch(method, input);
      expect(result.ok).toBe(false);
      if (result.ok) throw new Error(`${method} was expected to fail`);
      return result.error;
    },
  };
}
