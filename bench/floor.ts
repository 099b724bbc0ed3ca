import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { build, type Rolldown } from 'vite';
import { addPaintClock, clockSession, painted, readClock } from './paint-clock.ts';

/**
 * The floor of a cold deep link: what the network alone costs under the same throttling. A page of
 * the console's server (same origin, same compression) loads one script as large on the wire as
 * the screen's code (incompressible bytes that do nothing), which makes the screen's list request
 * and writes its rows by hand. No framework, no work: what is left above this floor is the console's.
 * With `requestAtOnce`, a small script listed first sends the request while the code downloads (as
 * the console's boot script does), and the rows are written once both are in. With `react`, the
 * script is React and ReactDOM as the console ships them (production, minified), padded to the same
 * size, and React renders the heading and the rows: the floor of the stack the console is built on.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const FLOOR_DIR = path.join(DIST, 'bench-floor');
const TOKEN_KEY = 'bench-floor-token';

export interface FloorLoad {
  lcp: number;
  firstPaint: number;
}

interface FloorPage {
  codeBytes: number;
  listUrl: string;
  caption: string;
  requestAtOnce?: boolean;
  /** React renders the rows under this heading (the screen's largest text, as on the screen). */
  react?: { heading: string };
}

interface Throttling {
  network: { offline: boolean; latency: number; downloadThroughput: number; uploadThroughput: number };
  cpuSlowdown: number;
}

/** Random base64 (does not compress) sized so that the script's brotli copy is `bytes` long. */
function padding(bytes: number): string {
  const raw = (length: number) => randomBytes(Math.ceil((length * 3) / 4)).toString('base64').slice(0, length);
  let text = raw(bytes);
  const compressed = zlib.brotliCompressSync(text).length;
  text = raw(Math.max(0, Math.round((bytes * bytes) / compressed)));
  return text;
}

// each floor load writes its page afresh; the bundle of one entry is built once
const reactBundles = new Map<string, Promise<string>>();

/** React and ReactDOM bundled with what renders the heading and the rows once the answer is in, padded to `codeBytes` on the wire. */
async function reactRowsScript(codeBytes: number, caption: string, heading: string, request: string): Promise<string> {
  const source = `import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
${request}const root = createRoot(document.body.appendChild(document.createElement('div')));
window.floorAnswer.then((items) => root.render(h('main', null, h('h1', null, ${JSON.stringify(heading)}), h('table', null,
  h('caption', null, ${JSON.stringify(caption)}),
  h('tbody', null, items.map((item) => h('tr', { key: item.id }, h('td', null, item.name), h('td', null, item.username))))))));
`;
  let bundle = reactBundles.get(source);
  if (!bundle) {
    const entry = path.join(FLOOR_DIR, 'react-rows.js');
    fs.writeFileSync(entry, source);
    bundle = build({ configFile: false, root: ROOT, logLevel: 'silent', build: { write: false, minify: true, target: 'es2022', modulePreload: false, rolldownOptions: { input: entry } } })
      .then((built) => (built as Rolldown.RolldownOutput).output.filter((item) => item.type === 'chunk')[0].code);
    reactBundles.set(source, bundle);
  }
  const code = await bundle;
  const rest = codeBytes - zlib.brotliCompressSync(code).length;
  return `${code}\nwindow.floorPadding = ${JSON.stringify(rest > 0 ? padding(rest) : '')};\n`;
}

async function writeFloorPage({ codeBytes, listUrl, caption, requestAtOnce = false, react }: FloorPage): Promise<void> {
  fs.mkdirSync(FLOOR_DIR, { recursive: true });
  const request = `window.floorAnswer = fetch(${JSON.stringify(new URL(listUrl).pathname + new URL(listUrl).search)}, { headers: { 'PRIVATE-TOKEN': sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)}) } }).then((answer) => answer.json());\n`;
  const script = react ? await reactRowsScript(codeBytes, caption.replace(/[$^]/g, ''), react.heading, requestAtOnce ? '' : request) : `const padding = ${JSON.stringify(padding(codeBytes))};
${requestAtOnce ? '' : request}window.floorAnswer
  .then((items) => {
    const table = document.createElement('table');
    table.createCaption().textContent = ${JSON.stringify(caption.replace(/[$^]/g, ''))};
    const body = table.createTBody();
    for (const item of items) {
      const row = body.insertRow();
      row.insertCell().textContent = item.name;
      row.insertCell().textContent = item.username;
    }
    document.body.append(table, String(padding.length > 0));
  });
`;
  // in the page's order: the request's script first, as the console lists its boot script
  const files: Array<[string, string]> = [...(requestAtOnce ? [['request.js', request] as [string, string]] : []), ['floor.js', script]];
  for (const [name, text] of files) {
    fs.writeFileSync(path.join(FLOOR_DIR, name), text);
    fs.writeFileSync(path.join(FLOOR_DIR, `${name}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(FLOOR_DIR, `${name}.gz`), zlib.gzipSync(text));
  }
  const scripts = files.map(([name]) => `<script type="module" src="/bench-floor/${name}"></script>`).join('');
  fs.writeFileSync(path.join(FLOOR_DIR, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Floor</title>${scripts}</head><body>${react ? '' : '<h1>Members</h1>'}</body></html>`);
}

/** Cold loads of the floor page, throttled as the screen's were. */
export async function floorLoad(browser: Browser, baseURL: string, token: string, page: FloorPage, throttling: Throttling): Promise<FloorLoad> {
  await writeFloorPage(page);
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 900 } });
  try {
    await context.addInitScript(([key, value]) => sessionStorage.setItem(key, value), [TOKEN_KEY, token] as const);
    await addPaintClock(context, { caption: page.caption });
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', throttling.network);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttling.cpuSlowdown });
    await clockSession(tab);
    await tab.goto('/bench-floor/index.html', { waitUntil: 'commit' });
    const first = await painted(tab, 30_000);
    await tab.waitForLoadState('networkidle');
    const clock = await readClock(tab);
    return { lcp: clock.lcp, firstPaint: first.at };
  } finally {
    await context.close();
    fs.rmSync(FLOOR_DIR, { recursive: true, force: true });
  }
}
