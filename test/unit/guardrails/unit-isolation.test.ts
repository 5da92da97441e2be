// The unit tier's own rule (test/support/unit-isolation.ts): in it, a socket or a process fails at
// once with an error naming the tier to move to. This file runs in the unit tier.
import childProcess, { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer as createHttpServer, get } from 'node:http';
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { UnitIsolationError } from '@test/support/unit-isolation';

const NAMES_THE_TIER = /move this file to test\/integration/;

describe('the unit tier', () => {
  it('refuses servers and clients, TCP and UDP', async () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(UnitIsolationError);
    expect(() => createHttpServer().listen(0)).toThrow(NAMES_THE_TIER);
    expect(() => connect(9, '127.0.0.1')).toThrow(UnitIsolationError);
    expect(() => get('http://127.0.0.1:9/')).toThrow(UnitIsolationError);
    const udp = createSocket('udp4');
    expect(() => udp.bind(0)).toThrow(UnitIsolationError);
    udp.close();
    // fetch (undici) reports the refused connect as its cause.
    const failed = await fetch('http://127.0.0.1:65535/').then(
      () => null,
      (error: unknown) => error,
    );
    expect((failed as { cause?: unknown } | null)?.cause).toBeInstanceOf(UnitIsolationError);
  });

  it('refuses child processes, through named and default imports alike', () => {
    expect(() => spawn('true')).toThrow(UnitIsolationError);
    expect(() => execFileSync('true')).toThrow(/child_process\.execFileSync/);
    expect(() => childProcess.fork('x.js')).toThrow(UnitIsolationError);
    expect(() => childProcess.exec('true')).toThrow(NAMES_THE_TIER);
  });
});
