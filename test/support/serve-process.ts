// npm run serve as the tests run it: a child process of the built bundle, started until it prints
// where it listens and stopped by a signal, and the app JWT that its demo credentials sign.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SignJWT, importPKCS8 } from 'jose';
import { z } from 'zod';
import { NODE_ARGS, ROOT, SERVE } from '@test/support/admin-cli';

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  lines: string[];
  stderr: string[];
}

/** Starts serve and resolves with its URL once it prints `listening on http://<host>:<port>`. */
export function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...NODE_ARGS, SERVE, ...args], { cwd: ROOT });
  const lines: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${lines.join('\n')} ${stderr.join('\n')}`)), 45_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, lines, stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stderr.join('\n')}`));
    });
  });
}

/** Sends a signal and resolves with the exit code (rejects after `withinMs`). */
export function stopServe(serve: ServeProcess, signal: NodeJS.Signals, withinMs = 5_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not stop within ${withinMs} ms`)), withinMs);
    serve.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    serve.child.kill(signal);
  });
}

export const credentialsSchema = z.object({
  app: z.object({ id: z.string(), privateKeyPem: z.string() }),
  installations: z.array(z.object({ id: z.string(), organizationId: z.string() })),
});

export async function appJwt(appId: string, privateKeyPem: string, nowMs = Date.now()): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(appId)
    .setIssuedAt(now - 60)
    .setExpirationTime(now + 600)
    .sign(await importPKCS8(privateKeyPem, 'RS256'));
}
