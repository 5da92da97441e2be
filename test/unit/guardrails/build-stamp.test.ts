// npm test builds out/web and out/renderer once and the tiers' global setups reuse them when their
// stamp matches the sources (scripts/build-stamp.ts): a stale build taken for current would test
// old code, so every kind of change to the inputs must make the stamp stale.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInputsDigest, buildIsCurrent, writeBuildStamp } from '@scripts/build-stamp';

let root: string;
let outDir: string;
let output: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  writeFileSync(join(root, 'tsconfig.base.json'), '{}\n');
  outDir = join(root, 'out');
  mkdirSync(outDir);
  output = join(outDir, 'main.js');
  writeFileSync(output, '// built\n');
  writeBuildStamp(outDir, buildInputsDigest(root, ['src']));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const current = () => buildIsCurrent(outDir, [output], buildInputsDigest(root, ['src']));

describe('a build stamp', () => {
  it('is current while nothing changes', () => {
    expect(current()).toBe(true);
  });

  it('is stale after a source is edited, added, removed or renamed', () => {
    writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'export const b = 3;\n');
    expect(current()).toBe(false);
    writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
    expect(current()).toBe(true);
    writeFileSync(join(root, 'src', 'c.ts'), '');
    expect(current()).toBe(false);
    rmSync(join(root, 'src', 'c.ts'));
    rmSync(join(root, 'src', 'a.ts'));
    expect(current()).toBe(false);
    writeFileSync(join(root, 'src', 'a2.ts'), 'export const a = 1;\n');
    expect(current()).toBe(false);
  });

  it('is stale after the locked packages or a TypeScript setting change', () => {
    writeFileSync(join(root, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
    expect(current()).toBe(false);
    writeBuildStamp(outDir, buildInputsDigest(root, ['src']));
    writeFileSync(join(root, 'tsconfig.renderer.json'), '{}\n');
    expect(current()).toBe(false);
  });

  it('is stale when an output is missing or no stamp was written', () => {
    rmSync(output);
    expect(current()).toBe(false);
    writeFileSync(output, '// built\n');
    rmSync(join(outDir, '.built-from'));
    expect(current()).toBe(false);
  });
});
