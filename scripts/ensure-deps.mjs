// Runs `npm ci` when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work on a fresh clone without a separate install step.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');

const fresh = fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs;
if (!fresh) {
  console.error('Installing dependencies (npm ci; better-sqlite3 builds from source, about a minute and a half)...');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
