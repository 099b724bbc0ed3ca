import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bootScript, compileHints, servedConsole } from './build-plugin.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the built index.html', () => {
  const transform = servedConsole().transformIndexHtml as (html: string) => string;
  const html = transform(fs.readFileSync(path.join(ROOT, 'index.html'), 'utf8'));
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)" \/>/.exec(html)?.[1] ?? '';

  it('carries the policy a static host can carry, before anything it governs', () => {
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeGreaterThan(html.indexOf('<meta charset'));
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'));
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("object-src 'none';");
    expect(policy).toContain("base-uri 'none';");
    expect(policy).toContain("require-trusted-types-for 'script'");
  });

  it('lets the direct mode reach another instance over https, and leaves framing to a header', () => {
    expect(policy).toContain("connect-src 'self' https:;");
    // a meta policy ignores frame-ancestors (CSP 3, 6.4.2), so it is not there to mislead
    expect(policy).not.toContain('frame-ancestors');
  });
});

describe('the boot script', () => {
  const plugin = bootScript();
  const transform = (plugin.transformIndexHtml as { handler: (html: string) => string }).handler;

  it('is listed before the entry, whose module scripts run in document order after it', () => {
    const html = transform('<head>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n  </head>');
    expect(html.indexOf('src="/src/boot.ts"')).toBeGreaterThan(-1);
    expect(html.indexOf('src="/src/boot.ts"')).toBeLessThan(html.indexOf('src="/assets/index-1.js"'));
  });

  it('refuses a page without a module script to precede', () => {
    expect(() => transform('<head></head>')).toThrow(/no module script/);
  });
});

describe('the compile hint', () => {
  // the parts of rolldown's output the plugin reads and writes
  type Output = { type: 'chunk' | 'asset'; fileName: string; code?: string; source?: string; isEntry?: boolean; imports?: string[]; moduleIds?: string[] };
  const generate = (compileHints().generateBundle as { handler: (options: unknown, bundle: Record<string, Output>) => void }).handler;
  const chunk = (fileName: string, code: string, values: { isEntry?: boolean; imports?: string[]; moduleIds?: string[] } = {}): Output => ({ type: 'chunk', fileName, code, isEntry: false, imports: [], moduleIds: [], ...values });
  const hinted = (output: Output) => output.code?.startsWith('//# allFunctionsCalledOnLoad\n');

  it("opens the entry with what it imports and every chunk of the console's own code, not a library's chunk", () => {
    const bundle: Record<string, Output> = {
      'assets/index-1.js': chunk('assets/index-1.js', 'import "./main-1.js";', { isEntry: true, imports: ['assets/main-1.js'], moduleIds: ['/app/index.html'] }),
      'assets/main-1.js': chunk('assets/main-1.js', 'import "./react-1.js";export{};', { imports: ['assets/react-1.js'], moduleIds: ['/app/src/main.tsx'] }),
      // a library the entry imports runs before the first frame
      'assets/react-1.js': chunk('assets/react-1.js', 'export{};', { moduleIds: ['/app/node_modules/react-dom/index.js'] }),
      'assets/members-1.js': chunk('assets/members-1.js', 'import "./main-1.js";', { imports: ['assets/main-1.js'], moduleIds: ['/app/src/routes/members.tsx'] }),
      // beside a screen, a library of which the screen uses a part
      'assets/highlight-1.js': chunk('assets/highlight-1.js', 'export{};', { moduleIds: ['/app/node_modules/highlight.js/lib/core.js'] }),
    };
    generate({}, bundle);
    for (const file of ['assets/index-1.js', 'assets/main-1.js', 'assets/react-1.js', 'assets/members-1.js']) expect(hinted(bundle[file]!), file).toBe(true);
    expect(bundle['assets/highlight-1.js']!.code).toBe('export{};');
  });

  it('moves the source map of a hinted file one line down with its code', () => {
    const bundle: Record<string, Output> = {
      'assets/index-1.js': chunk('assets/index-1.js', 'a();', { isEntry: true }),
      'assets/index-1.js.map': { type: 'asset', fileName: 'assets/index-1.js.map', source: JSON.stringify({ version: 3, sources: ['src/main.tsx'], mappings: 'AAAA' }) },
    };
    generate({}, bundle);
    expect(JSON.parse(bundle['assets/index-1.js.map']!.source!)).toMatchObject({ sources: ['src/main.tsx'], mappings: ';AAAA' });
  });
});
