// Makes sure a Chromium exists for the e2e tests and the bench: Playwright's own build when it was
// downloaded, else Debian's /usr/bin/chromium, installed with apt-get when we are root on Debian.
// Exits 1 with the reason when there is none and it cannot install one.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Playwright's own Chromium; loading Playwright takes a moment, so only asked when needed. */
async function bundledChromium() {
  try {
    const { chromium } = await import('@playwright/test');
    const bundled = chromium.executablePath();
    return bundled && fs.existsSync(bundled) ? bundled : null;
  } catch {
    return null;
  }
}

function fail(reason) {
  console.error(`ensure-chromium: no Chromium for the e2e tests: ${reason}`);
  console.error(`ensure-chromium: install Debian's package (apt-get install chromium) or run "npx playwright install chromium".`);
  process.exit(1);
}

if (!fs.existsSync(SYSTEM_CHROMIUM) && !(await bundledChromium())) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const debian = fs.existsSync('/etc/debian_version') && fs.existsSync('/usr/bin/apt-get');
  if (!debian) fail('this is not a Debian-like system with apt-get, so it cannot be installed here');
  if (!root) fail('installing it with apt-get needs root');
  console.error('ensure-chromium: installing Debian\'s chromium with apt-get (a few minutes)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execSync('apt-get update && apt-get install -y chromium', { stdio: ['ignore', 'inherit', 'inherit'], env });
  } catch (error) {
    fail(`apt-get failed (${error.message.split('\n')[0]})`);
  }
  if (!fs.existsSync(SYSTEM_CHROMIUM)) fail(`apt-get finished but ${SYSTEM_CHROMIUM} is missing`);
}
