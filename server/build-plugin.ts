import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';
import { contentSecurityPolicy } from './security.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

// text a browser downloads; below 1 KB compression saves less than a packet
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;
const LARGE_BYTES = 64 * 1024;

// V8's explicit compile hint (Chrome 136+; other engines read a comment): it must open the file
const COMPILE_ALL_ON_LOAD = '//# allFunctionsCalledOnLoad\n';
const isConsoleSource = (moduleId: string) => moduleId.includes('/src/') && !moduleId.includes('/node_modules/');

/**
 * Writes `file.br` and `file.gz` beside each compressible file. Brotli at 10, not 11: on this
 * console's chunks 11 takes 2.6 times as long for 1.8 % less. Except the few files over 64 KB, the
 * entry among them: there 11 saves 2 KB of the entry, some 10 ms of every cold load at 1.6 Mbps.
 */
export async function precompress(files: readonly string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      if (!COMPRESSIBLE.test(file)) return;
      const content = await fs.readFile(file);
      if (content.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: content.length > LARGE_BYTES ? 11 : 10, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
        gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
    }),
  );
}

/**
 * The built console as it is served: index.html carries the Content-Security-Policy a static
 * host can carry (a meta tag: the direct mode's https: connections, no frame-ancestors, which
 * only a header can set), and every text file gets its brotli and gzip copies for server/app.ts.
 * Build only: the dev server's hot reload runs an inline script that the policy forbids.
 */
export function servedConsole(): Plugin {
  return {
    name: 'platform-console:served',
    apply: 'build',
    // right after the charset, before any script or style it governs
    transformIndexHtml(html) {
      const charset = /<meta charset="[^"]*" \/>/i;
      if (!charset.test(html)) throw new Error('index.html needs <meta charset="UTF-8" /> for the policy to follow');
      return html.replace(
        charset,
        `$&\n    <!-- frame-ancestors is ignored in a meta tag: only the served header (server/security.ts) forbids framing -->\n    <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy('direct')}" />`,
      );
    },
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await precompress(Object.keys(bundle).map((name) => path.join(dir, name)));
    },
  };
}

const BOOT_SOURCE = 'src/boot.ts';

/**
 * The boot script (src/boot.ts) as a file of its own, listed before the entry: Vite would fold a
 * second script of index.html into the entry, where it would run only once all of the entry is in.
 * The build bundles it apart (rolldown, as Vite itself does); the dev server loads the module as is.
 */
export function bootScript(): Plugin {
  let root = process.cwd();
  let building = false;
  let built: { fileName: string; code: string } | undefined;
  return {
    name: 'platform-console:boot',
    configResolved(config) {
      root = config.root;
      building = config.command === 'build';
    },
    async buildStart() {
      if (!building) return;
      const bundle = await rolldown({ input: path.resolve(root, BOOT_SOURCE), platform: 'browser' });
      try {
        const { output } = await bundle.generate({ format: 'esm', minify: true, entryFileNames: 'assets/boot-[hash].js' });
        // all of it runs as soon as it is in: compiled while it downloads (compileHints)
        built = { fileName: output[0].fileName, code: COMPILE_ALL_ON_LOAD + output[0].code };
      } finally {
        await bundle.close();
      }
    },
    generateBundle() {
      if (built) this.emitFile({ type: 'asset', fileName: built.fileName, source: built.code });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        // module scripts run in document order: before the entry's, it never waits for the entry
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('index.html has no module script for the boot script to precede');
        const tag = `<script type="module" crossorigin src="/${built?.fileName ?? BOOT_SOURCE}"></script>\n    `;
        return html.slice(0, at) + tag + html.slice(at);
      },
    },
  };
}

/**
 * Marks the console's own code for eager compilation: the entry with what it imports statically
 * (run by every page before its first frame), and every chunk holding modules of `src/` (a
 * screen's code, fetched ahead by the page's preloads or idle prefetch, runs when the screen
 * shows). Chromium then compiles it on a background thread as it arrives, instead of function by
 * function on the main thread as each is first called: on a cold members page at 4x CPU the
 * entry's first task fell from about 155 to 85 ms, and a press no longer compiles its screen.
 * Library chunks beside a screen's code stay lazy: a screen uses a part of them.
 */
export function compileHints(): Plugin {
  return {
    name: 'platform-console:compile-hints',
    apply: 'build',
    generateBundle: {
      // after Vite's own generateBundle, which puts its preload map at the top of the entry
      order: 'post',
      handler(_options, bundle) {
        const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
        const hinted = new Set<string>();
        const visit = (fileName: string) => {
          if (hinted.has(fileName)) return;
          hinted.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
        };
        for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
        for (const chunk of chunks.values()) if (chunk.moduleIds.some(isConsoleSource)) hinted.add(chunk.fileName);
        for (const fileName of hinted) {
          const chunk = chunks.get(fileName)!;
          chunk.code = COMPILE_ALL_ON_LOAD + chunk.code;
          // the added line moves every mapping one line down
          const mapFile = bundle[`${fileName}.map`];
          if (mapFile?.type === 'asset') {
            const map = JSON.parse(String(mapFile.source)) as { mappings: string };
            mapFile.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` });
          }
        }
      },
    },
  };
}
