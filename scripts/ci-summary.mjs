// Prints the one plain line CI reads, "Tests: N passed, N failed", summed over the JSON reports
// given (Vitest's and Playwright's). A missing report adds nothing but is named on stderr, so the
// line still prints when a step before it failed. Before it, the page as each failed e2e attempt left it.
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

/**
 * The main content and any dialog of the page when an attempt failed, from Playwright's error
 * context: a flaky test's failed attempt leaves no trace (traces are kept from the retry), and the
 * clean clone CI ran in is gone afterwards.
 */
function pageAtFailure(contextFile) {
  const text = fs.readFileSync(contextFile, 'utf8');
  const snapshot = text.split('# Page snapshot')[1]?.split('```yaml')[1]?.split('```')[0] ?? '';
  const kept = [];
  let within = -1;
  for (const line of snapshot.split('\n')) {
    const depth = line.length - line.trimStart().length;
    if (within >= 0 && depth <= within) within = -1;
    if (within < 0 && /^- (main|dialog|alertdialog)\b/.test(line.trimStart())) within = depth;
    if (within >= 0) kept.push(line);
  }
  return kept.slice(0, 80).join('\n');
}

function printFailedAttempts(report) {
  const visit = (suite) => {
    for (const child of suite.suites ?? []) visit(child);
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? []) {
          const context = (result.attachments ?? []).find((attachment) => attachment.name === 'error-context' && attachment.path);
          if (result.status === 'passed' || !context || !fs.existsSync(context.path)) continue;
          console.log(`\n--- ${spec.file}:${spec.line} ${spec.title} (attempt ${result.retry + 1}, ${result.status}): the page then ---`);
          console.log(pageAtFailure(context.path));
        }
  };
  for (const suite of report.suites ?? []) visit(suite);
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
  const isPlaywright = 'stats' in report && 'suites' in report;
  if (isPlaywright) printFailedAttempts(report);
  const counts = isPlaywright ? playwrightCounts(report) : vitestCounts(report);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`Tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
