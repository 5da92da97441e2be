// Preloaded (node --import) into a scenario child to make `import('keytar')` fail exactly as it
// does on a machine where the native module is missing, without touching node_modules.
import { register } from 'node:module';

const hook = `export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'keytar') {
    throw Object.assign(new Error("Cannot find module 'keytar'"), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return nextResolve(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
