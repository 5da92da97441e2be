// Names are ordered one way across the desk: compareNames (renderer/src/lib/format.ts), the desk
// locale's collation. A bare `localeCompare` orders by whatever locale the browser runs in, so two
// lists of the same organizations could disagree; three such sorts came back after being mended,
// hence this check over every renderer source file.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('name order in the renderer', () => {
  it('sorts with compareNames, never a bare localeCompare', () => {
    const bare = sources(join(root, 'renderer/src')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\.localeCompare\(/.test(line) ? [`${relative(root, file)}:${i + 1}`] : [])),
    );
    expect(bare).toEqual([]);
  });
});
