import type { Page } from '../../api/pagination.ts';
import type { TestCase, TestReport } from '../../api/pipelines.ts';

/** A case with the suite it came from (names repeat across suites). */
export interface ReportCase extends TestCase {
  suite: string;
  /** Its place in the report, as a stable row id. */
  key: string;
}

export const CASE_STATUSES = ['failed', 'error', 'skipped', 'success'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Failures first, as one reads a report: failed, error, skipped, passed; within, in report order. */
const RANK: Record<string, number> = { failed: 0, error: 1, skipped: 2, success: 3 };

/** Every case of the report, failures first. */
export function reportCases(report: TestReport): ReportCase[] {
  const cases = report.test_suites.flatMap((suite, suiteIndex) => suite.test_cases.map((testCase, caseIndex) => ({ ...testCase, suite: suite.name, key: `${suiteIndex}:${caseIndex}` })));
  return cases
    .map((testCase, index) => ({ testCase, index }))
    .sort((a, b) => (RANK[a.testCase.status] ?? 4) - (RANK[b.testCase.status] ?? 4) || a.index - b.index)
    .map(({ testCase }) => testCase);
}

export interface CaseFilter {
  suite: string;
  search: string;
  status?: CaseStatus;
}

/** The cases a filter keeps: a suite by name, a status, and words found in the name, class or file (any case). */
export function filterCases(cases: readonly ReportCase[], { suite, search, status }: CaseFilter): ReportCase[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return cases.filter((testCase) => {
    if (suite && testCase.suite !== suite) return false;
    if (status && testCase.status !== status) return false;
    if (!words.length) return true;
    const haystack = `${testCase.name}\n${testCase.classname ?? ''}\n${testCase.file ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** One page of the filtered cases, shaped as an API page so the shared paginator shows it. */
export function pageOf<T>(items: readonly T[], page: number, perPage: number): Page<T> {
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const current = Math.min(Math.max(1, page), totalPages);
  return {
    items: items.slice((current - 1) * perPage, current * perPage),
    page: current,
    perPage,
    total: items.length,
    totalPages,
    nextPage: current < totalPages ? current + 1 : undefined,
    prevPage: current > 1 ? current - 1 : undefined,
    links: {},
  };
}
