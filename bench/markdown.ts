import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { securityHeaders } from '../server/security.ts';
import { ensureBuilt, gzipOfDynamicImport, readManifest } from './bundle.ts';
import { realisticDescription } from './markdown-sample.ts';
import { emit, log, median, round } from './report.ts';

/**
 * "Markdown rendering of a 100 KB description" (issue 13): in Chromium, the console's `Markdown`
 * component on a page of its own (bench/markdown-page, built by Vite as the console is, served
 * with the console's headers, so Trusted Types are in force), from setting the source to the frame
 * that painted it: parse, sanitize, task and reference passes, DOM insertion, style, layout and
 * paint. Code highlighting loads its grammars after that, as on a screen, and is waited out
 * between runs. The log also times each step alone, outside React (bench/markdown-page/steps.ts).
 * Until a screen of the console renders Markdown, the chunk's size comes from this build too
 * (bench/bundle.ts reports it from the console's build once one does); here the steps share
 * markdown-render with the view, so Rollup splits it out: the figure counts both chunks, a few
 * hundred bytes over the one chunk the console builds.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE_DIR = path.join(ROOT, 'bench', 'markdown-page');
const MARKDOWN_SOURCE = 'src/components/markdown-view.tsx';
const SIZE = 100_000;
const RUNS = 9;
const STEP_TIMEOUT_MS = 60_000;
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
// the description's images come from the instance (this server): each is a 1×1 PNG
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Serves a built directory on a free loopback port with the console's security headers. */
async function serve(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (name.startsWith('/uploads/')) {
      response.writeHead(200, { ...securityHeaders(), 'Content-Type': 'image/png' }).end(PIXEL);
      return;
    }
    const file = path.join(dir, name === '/' ? 'index.html' : name);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { ...securityHeaders(), 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function markdownFigures(): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'markdown-bench-'));
  try {
    await build({
      configFile: false,
      root: PAGE_DIR,
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, manifest: true, target: 'es2022', sourcemap: false },
    });
    // the chunk, from the console's build when a screen there renders Markdown (bench/bundle.ts says it), else from this one
    ensureBuilt();
    if (!readManifest()[MARKDOWN_SOURCE]) {
      const chunk = gzipOfDynamicImport(outDir, path.relative(PAGE_DIR, path.join(ROOT, MARKDOWN_SOURCE)));
      log(`markdown chunk (bench page build; no console screen renders Markdown yet): ${chunk.files.join(', ')}`);
      emit({ name: 'console.markdown_chunk_gzip', value: chunk.kB, unit: 'KB', goal: 40 });
    }

    const server = await serve(outDir);
    const browser = await chromium.launch(chromiumLaunchOptions());
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      await page.goto(server.url);
      const show = (source: string) => page.evaluate((text) => (window as unknown as { markdownBench: { show(source: string): Promise<number> } }).markdownBench.show(text), source);
      // the lazy chunk loads on the first source; its grammars on the first fences
      await page.waitForFunction(() => 'markdownBench' in window, undefined, { timeout: STEP_TIMEOUT_MS });
      await page.evaluate(() => (window as unknown as { markdownBench: { show(source: string): Promise<number> } }).markdownBench.show('# warm').catch(() => 0));
      await page.locator('.markdown:not(.markdown--pending) h1').waitFor({ timeout: STEP_TIMEOUT_MS });
      const highlighted = () => page.waitForFunction(() => [...document.querySelectorAll('pre > code.language-ts')].every((code) => code.classList.contains('hljs')), undefined, { timeout: STEP_TIMEOUT_MS, polling: 50 });

      const runs: number[] = [];
      let first = 0;
      for (let run = 0; run <= RUNS; run++) {
        // a different text each run: nothing is reused from the last
        const source = realisticDescription(SIZE, run * 1000);
        const elapsed = await show(source);
        await highlighted();
        if (run === 0) first = elapsed;
        else runs.push(elapsed);
      }
      const steps = await page.evaluate((text) => (window as unknown as { markdownBench: { steps(source: string): Promise<Record<string, number>> } }).markdownBench.steps(text), realisticDescription(SIZE, 99_000));
      log(`markdown steps, outside React: ${Object.entries(steps).map(([step, ms]) => `${step} ${round(ms, 1)} ms`).join(', ')}`);
      const shown = await page.evaluate(() => ({
        tasks: document.querySelectorAll('.markdown input[type="checkbox"]').length,
        references: document.querySelectorAll('.markdown a.gfm-reference').length,
        tables: document.querySelectorAll('.markdown table').length,
        nodes: document.querySelectorAll('.markdown *').length,
      }));
      if (errors.length) throw new Error(`the page reported ${errors.length} errors: ${[...new Set(errors)].slice(0, 3).join('; ')}`);
      if (!shown.tasks || !shown.references || !shown.tables) throw new Error(`the description rendered without tasks, references or tables: ${JSON.stringify(shown)}`);
      log(`markdown: ${SIZE / 1000} KB description, ${shown.nodes} elements (${shown.tasks} tasks, ${shown.references} references, ${shown.tables} tables); set to painted: ${runs.map((ms) => round(ms, 1)).join(', ')} ms (first, uncounted: ${round(first, 1)} ms)`);
      emit({ name: 'console.markdown_render_100kb', value: round(median(runs), 1), unit: 'ms' });
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
