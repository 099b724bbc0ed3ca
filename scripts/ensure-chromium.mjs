// Makes sure the browsers exist: Playwright's own Chromium when it was downloaded, else Debian's
// /usr/bin/chromium (the bench's: the browser users run), and Debian's chromium-headless-shell
// (the e2e tests', see e2e/browser.ts), installed with apt-get when we are root on Debian.
// Exits 1 with the reason when there is no Chromium and it cannot install one; without the
// headless shell the tests run in the full Chromium.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const SYSTEM_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

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

const needChromium = !fs.existsSync(SYSTEM_CHROMIUM) && !(await bundledChromium());
const wantShell = !fs.existsSync(SYSTEM_HEADLESS_SHELL);
const canInstall = fs.existsSync('/etc/debian_version') && fs.existsSync('/usr/bin/apt-get') && process.getuid?.() === 0;
if (needChromium && !canInstall) fail('it is missing, and only root on a Debian-like system with apt-get installs it here');
if (canInstall && (needChromium || wantShell)) {
  const packages = [needChromium && 'chromium', wantShell && 'chromium-headless-shell'].filter(Boolean);
  console.error(`ensure-chromium: installing Debian's ${packages.join(' and ')} with apt-get (a minute or two)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptGet = (command) => execSync(`apt-get ${command}`, { stdio: ['ignore', 'inherit', 'inherit'], env });
  try {
    aptGet('update');
    if (needChromium) aptGet('install -y chromium');
  } catch (error) {
    if (needChromium) fail(`apt-get failed (${error.message.split('\n')[0]})`);
  }
  if (needChromium && !fs.existsSync(SYSTEM_CHROMIUM)) fail(`apt-get finished but ${SYSTEM_CHROMIUM} is missing`);
  try {
    // a Debian release without the package keeps the tests in the full Chromium
    if (wantShell) aptGet('install -y chromium-headless-shell');
  } catch {
    console.error('ensure-chromium: no headless shell; the e2e tests run in the full Chromium');
  }
}
