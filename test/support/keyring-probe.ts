// Child-process entry: runs one keyring scenario and prints its JSON on a line starting with
// RESULT_PREFIX. Usage: node --import tsx test/support/keyring-probe.ts <scenario> [json-args]
import { scenarios, type ScenarioName } from './keyring-scenarios';

export const RESULT_PREFIX = 'KEYRING-SCENARIO-RESULT ';

async function main(): Promise<void> {
  const [name, rawArgs] = process.argv.slice(2);
  if (!name || !(name in scenarios)) throw new Error(`Unknown scenario ${String(name)}; one of ${Object.keys(scenarios).join(', ')}`);
  const args: unknown = rawArgs ? JSON.parse(rawArgs) : {};
  const result = await (scenarios[name as ScenarioName] as (a: unknown) => Promise<unknown>)(args);
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

// Only when run as a script (the test process imports RESULT_PREFIX from here).
if (process.argv[1]?.endsWith('keyring-probe.ts')) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
