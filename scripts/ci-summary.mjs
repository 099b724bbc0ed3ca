// Prints the plain closing line CI reads ("N passed, N failed") from the Vitest JSON report.
import fs from 'node:fs';

const file = process.argv[2];
if (!file || !fs.existsSync(file)) process.exit(0);
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
