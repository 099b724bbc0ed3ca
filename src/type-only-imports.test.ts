import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gen.ts') ? [full] : [];
  });
}

describe('imports of types only', () => {
  // with verbatimModuleSyntax, `import { type A } from 'm'` stays as `import 'm'`: a URL schema importing an
  // area's types that way pulled the area's whole API client into the entry (+4.8 KB gzip)
  it('are written `import type`, so they load nothing', () => {
    const offenders = sources(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^import \{ (?:type \w+(?:, )?)+ \} from /.test(line))
        .map((line) => `${path.relative(SRC, file)}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });
});
