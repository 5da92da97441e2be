// Runs keyring scenarios where a real Secret Service is: in this process when it already has a
// D-Bus session (CI runs the suite under dbus-run-session with gnome-keyring unlocked), otherwise
// in a child re-executed under its own dbus-run-session + gnome-keyring. Never skips.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT_PREFIX } from './keyring-probe';
import { scenarios, type ScenarioName, type ScenarioResult } from './keyring-scenarios';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROBE_SCRIPT = 'test/support/keyring-probe.ts';

export async function runWithSecretService<N extends ScenarioName>(name: N, args: object = {}): Promise<ScenarioResult<N>> {
  if (process.env.DBUS_SESSION_BUS_ADDRESS) {
    return (await (scenarios[name] as (a: object) => Promise<unknown>)(args)) as ScenarioResult<N>;
  }
  const command = `echo -n registry-desk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node --import tsx ${PROBE_SCRIPT} ${name} ${shellQuote(JSON.stringify(args))}`;
  // A throwaway keyring directory: the developer's own login keyring (another password, maybe
  // locked) is neither needed nor touched, and every run starts from an empty keyring.
  const keyringHome = mkdtempSync(join(tmpdir(), 'registry-desk-keyring-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: keyringHome };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  try {
    return (await runChild('dbus-run-session', ['--', 'sh', '-c', command], env)) as ScenarioResult<N>;
  } finally {
    rmSync(keyringHome, { recursive: true, force: true });
  }
}

/** Runs a scenario in a plain node child with the given D-Bus address (e.g. one where nothing listens). */
export async function runWithBusAddress<N extends ScenarioName>(
  busAddress: string,
  name: N,
  args: object = {},
): Promise<ScenarioResult<N>> {
  const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: busAddress };
  // No $DISPLAY: otherwise libdbus may try to autolaunch a bus through X11.
  delete env.DISPLAY;
  return (await runChild(process.execPath, ['--import', 'tsx', PROBE_SCRIPT, name, JSON.stringify(args)], env)) as ScenarioResult<N>;
}

/** Runs a scenario in a node child where importing keytar fails as if it were not installed. */
export async function runWithoutKeytar<N extends ScenarioName>(name: N, args: object = {}): Promise<ScenarioResult<N>> {
  const nodeArgs = ['--import', 'tsx', '--import', './test/support/keyring-hide-keytar.ts', PROBE_SCRIPT, name, JSON.stringify(args)];
  return (await runChild(process.execPath, nodeArgs, process.env)) as ScenarioResult<N>;
}

/**
 * Resolves with the scenario's JSON as soon as it is printed. A child whose native keychain call
 * is still stuck cannot exit by itself (Node waits for its worker threads), so it is killed if it
 * has not exited shortly after reporting.
 */
function runChild(command: string, args: string[], env: NodeJS.ProcessEnv, limitMs = 60_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      outcome();
    };
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new Error(`Keyring scenario did not report within ${limitMs} ms. stderr:\n${stderr}`)));
    }, limitMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_PREFIX));
      if (!line || !stdout.includes('\n', stdout.indexOf(RESULT_PREFIX))) return;
      finish(() => resolve(JSON.parse(line.slice(RESULT_PREFIX.length))));
      const grace = setTimeout(() => child.kill('SIGKILL'), 2_000);
      child.once('exit', () => clearTimeout(grace));
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => finish(() => reject(error)));
    child.on('exit', (code, signal) => {
      finish(() => reject(new Error(`Keyring scenario exited (${code ?? signal}) without a result. stderr:\n${stderr}`)));
    });
  });
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
