/**
 * JUnit reports (`artifacts:reports:junit`): parsing with fast-xml-parser, and the platform's
 * JSON of a pipeline's test report and test report summary. One suite per job (its group name),
 * as the platform groups them; a report that does not parse is that suite's `suite_error`.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type TestCaseStatus = 'success' | 'failed' | 'error' | 'skipped';
export interface TestCase {
  status: TestCaseStatus;
  name: string;
  classname: string;
  file: string | null;
  /** Seconds. */
  executionTime: number;
  systemOutput: string | null;
  stackTrace: string | null;
  attachment: string | null;
}
/** What one file gives: its cases, or the error that stopped reading it. */
export interface TestSuite {
  name: string;
  cases: TestCase[];
  error: string | null;
}

const CASE_ORDER: TestCaseStatus[] = ['error', 'failed', 'success', 'skipped'];
const MAX_CASES_PER_FILE = 500_000;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (tag) => tag === 'testsuite' || tag === 'testcase' || tag === 'failure' || tag === 'error' || tag === 'skipped' || tag === 'system-out' || tag === 'system-err',
  processEntities: { enabled: true, maxEntityCount: 20, maxTotalExpansions: 1000, maxExpandedLength: 100_000 },
});

type Node = Record<string, unknown>;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(text).filter(Boolean).join('\n');
  if (typeof value === 'object') return text((value as Node)['#text']);
  return String(value);
}

function attr(node: Node, name: string): string | null {
  const value = node[`@${name}`];
  return typeof value === 'string' ? value : null;
}

function outcome(node: Node, key: string): { body: string; message: string | null } | null {
  const list = node[key];
  if (!Array.isArray(list) || list.length === 0) return null;
  const first = list[0];
  if (typeof first === 'string') return { body: first.trim(), message: null };
  const element = (first ?? {}) as Node;
  return { body: text(element['#text']).trim(), message: attr(element, 'message') };
}

function readCase(node: Node): TestCase {
  const failure = outcome(node, 'failure');
  const error = failure ? null : outcome(node, 'error');
  const skipped = failure || error ? null : outcome(node, 'skipped');
  const status: TestCaseStatus = failure ? 'failed' : error ? 'error' : skipped ? 'skipped' : 'success';
  const detail = failure ?? error ?? skipped;
  const streams = [text(node['system-out']).trim(), text(node['system-err']).trim()].filter(Boolean).join('\n');
  const detailText = detail ? detail.body || detail.message || '' : '';
  const output = [detailText, streams].filter(Boolean).join('\n');
  const time = Number.parseFloat(attr(node, 'time') ?? '');
  const attachment = /\[\[ATTACHMENT\|(.+?)\]\]/.exec(streams)?.[1] ?? null;
  return {
    status,
    name: attr(node, 'name') ?? '',
    classname: attr(node, 'classname') ?? '',
    file: attr(node, 'file'),
    executionTime: Number.isFinite(time) && time >= 0 ? time : 0,
    systemOutput: output || null,
    stackTrace: (failure ?? error) && detail!.body ? detail!.body : null,
    attachment,
  };
}

function collectCases(node: Node, cases: TestCase[], inheritedFile: string | null): void {
  for (const suite of (node.testsuite as Node[] | undefined) ?? []) {
    if (typeof suite !== 'object' || suite === null) continue;
    const file = attr(suite, 'file') ?? inheritedFile;
    for (const testcase of (suite.testcase as Node[] | undefined) ?? []) {
      if (typeof testcase !== 'object' || testcase === null) continue;
      const parsed = readCase(testcase);
      if (parsed.file === null && file !== null) parsed.file = file;
      cases.push(parsed);
      if (cases.length > MAX_CASES_PER_FILE) throw new Error(`the report has more than ${MAX_CASES_PER_FILE} test cases`);
    }
    collectCases(suite, cases, file);
  }
}

/** Reads one JUnit file: every test case of its (nested) suites. Never throws: errors go in `error`. */
export function parseJunit(xml: string): TestSuite[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    return [{ name: '', cases: [], error: `JUnit XML parsing failed: ${valid.err.line}:${valid.err.col}: FATAL: ${valid.err.msg}` }];
  }
  try {
    const doc = parser.parse(xml) as Node;
    const root = (doc.testsuites as Node | Node[] | undefined) ?? doc;
    const roots = Array.isArray(root) ? root : [root];
    const suites: TestSuite[] = [];
    for (const item of roots) {
      if (typeof item !== 'object' || item === null) continue;
      for (const suite of (item.testsuite as Node[] | undefined) ?? []) {
        if (typeof suite !== 'object' || suite === null) continue;
        const cases: TestCase[] = [];
        collectCases({ testsuite: [suite] }, cases, null);
        suites.push({ name: attr(suite, 'name') ?? '', cases, error: null });
      }
    }
    return suites;
  } catch (error) {
    return [{ name: '', cases: [], error: `JUnit data parsing failed: ${(error as Error).message}` }];
  }
}

/** The platform's group name of a job: "rspec 1/3" and "build: [linux, amd64]" group as "rspec", "build". */
export function groupName(jobName: string): string {
  return jobName.replace(/(?:[\s:]+(?:\[.*\]|\d+[\s:/\\]+\d+)){1,3}\s*$/, '').trim();
}

/** The junit results of one job of the pipeline: its name, id, and each report file's parse. */
export interface JobTestResults {
  jobName: string;
  jobId: number;
  suites: TestSuite[];
}

export interface TestCaseJson {
  status: TestCaseStatus;
  name: string;
  classname: string;
  file: string | null;
  execution_time: number;
  system_output: string | null;
  stack_trace: string | null;
  recent_failures: { count: number; base_branch: string } | null;
  attachment_url?: string;
}
/** The counts a report and each of its suites carry. */
export interface TestCountsJson {
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
}
export interface TestSuiteJson extends TestCountsJson {
  name: string;
  suite_error: string | null;
  test_cases: TestCaseJson[];
}
export interface TestReportJson extends TestCountsJson {
  test_suites: TestSuiteJson[];
}
export interface TestReportSummaryJson {
  total: { time: number; count: number; success: number; failed: number; skipped: number; error: number; suite_error: string | null };
  test_suites: Array<Omit<TestSuiteJson, 'test_cases'> & { build_ids: number[] }>;
}

interface Grouped {
  name: string;
  buildIds: number[];
  cases: TestCase[];
  error: string | null;
}

function group(results: JobTestResults[]): Grouped[] {
  const byName = new Map<string, Grouped>();
  for (const result of results) {
    const name = groupName(result.jobName);
    let entry = byName.get(name);
    if (!entry) {
      entry = { name, buildIds: [], cases: [], error: null };
      byName.set(name, entry);
    }
    if (!entry.buildIds.includes(result.jobId)) entry.buildIds.push(result.jobId);
    for (const suite of result.suites) {
      if (suite.error && !entry.error) entry.error = suite.error;
      for (const testCase of suite.cases) entry.cases.push(testCase);
    }
  }
  return [...byName.values()];
}

const round = (n: number) => Math.round(n * 100) / 100;

function suiteCounts(suite: Grouped): Omit<TestSuiteJson, 'test_cases'> {
  const counts = { success: 0, failed: 0, skipped: 0, error: 0 };
  let time = 0;
  if (!suite.error) {
    for (const testCase of suite.cases) {
      counts[testCase.status] += 1;
      time += testCase.executionTime;
    }
  }
  return {
    name: suite.name,
    total_time: round(time),
    total_count: suite.error ? 0 : suite.cases.length,
    success_count: counts.success,
    failed_count: counts.failed,
    skipped_count: counts.skipped,
    error_count: counts.error,
    suite_error: suite.error,
  };
}

function caseJson(testCase: TestCase, recentFailures: TestReportOptions['recentFailures']): TestCaseJson {
  const out: TestCaseJson = {
    status: testCase.status,
    name: testCase.name,
    classname: testCase.classname,
    file: testCase.file,
    execution_time: testCase.executionTime,
    system_output: testCase.systemOutput,
    stack_trace: testCase.stackTrace,
    recent_failures: testCase.status === 'failed' || testCase.status === 'error' ? (recentFailures?.(testCase) ?? null) : null,
  };
  if (testCase.attachment) out.attachment_url = testCase.attachment;
  return out;
}

function totals(suites: Array<Omit<TestSuiteJson, 'test_cases'>>) {
  const out = { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0 };
  for (const suite of suites) {
    out.time += suite.total_time;
    out.count += suite.total_count;
    out.success += suite.success_count;
    out.failed += suite.failed_count;
    out.skipped += suite.skipped_count;
    out.error += suite.error_count;
  }
  out.time = round(out.time);
  return out;
}

export interface TestReportOptions {
  /** How often the case failed on the base branch lately, when the caller knows. */
  recentFailures?: (testCase: TestCase) => { count: number; base_branch: string } | null;
}

/** `GET /projects/:id/pipelines/:pipeline_id/test_report`: cases errors first, then failures, by time. */
export function testReport(results: JobTestResults[], options: TestReportOptions = {}): TestReportJson {
  const suites = group(results).map((suite): TestSuiteJson => {
    const cases = suite.error
      ? []
      : suite.cases
          .map((testCase, index) => ({ testCase, index }))
          .sort(
            (a, b) =>
              CASE_ORDER.indexOf(a.testCase.status) - CASE_ORDER.indexOf(b.testCase.status) ||
              b.testCase.executionTime - a.testCase.executionTime ||
              a.index - b.index,
          )
          .map(({ testCase }) => caseJson(testCase, options.recentFailures));
    return { ...suiteCounts(suite), test_cases: cases };
  });
  const total = totals(suites);
  return {
    total_time: total.time,
    total_count: total.count,
    success_count: total.success,
    failed_count: total.failed,
    skipped_count: total.skipped,
    error_count: total.error,
    test_suites: suites,
  };
}

/** `GET /projects/:id/pipelines/:pipeline_id/test_report_summary`. */
export function testReportSummary(results: JobTestResults[]): TestReportSummaryJson {
  const grouped = group(results);
  const suites = grouped.map((suite) => ({ ...suiteCounts(suite), build_ids: suite.buildIds }));
  return {
    total: {
      ...totals(suites),
      suite_error: grouped.find((suite) => suite.error)?.error ?? null,
    },
    test_suites: suites,
  };
}
