// Prints the one plain line CI reads, "Tests: N passed, N failed", summed over the JSON reports
// given (Vitest's and Playwright's). A missing report adds nothing but is named on stderr, so the
// line still prints when a step before it failed.
import fs from 'node:fs';

/** Vitest (Jest-shaped JSON): a file that failed to load has no failed test, yet failed. */
function vitestCounts(report) {
  const unloaded = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + unloaded,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

/** Playwright: flaky tests passed on a retry; errors outside tests (a spec that did not load) fail too. */
function playwrightCounts(report) {
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors ?? []).length,
    skipped: stats.skipped ?? 0,
  };
}

const total = { passed: 0, failed: 0, skipped: 0 };
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(`ci-summary: ${file} is missing (that step did not run)`);
    continue;
  }
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`ci-summary: ${file} is not JSON: ${error.message}`);
    total.failed++;
    continue;
  }
  const counts = 'stats' in report && 'suites' in report ? playwrightCounts(report) : vitestCounts(report);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`Tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
