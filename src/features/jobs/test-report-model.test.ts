import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { testReportSchema } from '../../api/pipelines.ts';
import { filterCases, pageOf, reportCases } from './test-report-model.ts';

const report = z.parse(testReportSchema, {
  total_time: 3,
  total_count: 5,
  success_count: 2,
  failed_count: 1,
  skipped_count: 1,
  error_count: 1,
  test_suites: [
    {
      name: 'rspec',
      total_time: 2,
      total_count: 3,
      success_count: 1,
      failed_count: 1,
      skipped_count: 1,
      error_count: 0,
      test_cases: [
        { status: 'success', name: 'adds numbers', classname: 'spec.math', execution_time: 0.1 },
        { status: 'skipped', name: 'divides by zero', classname: 'spec.math', execution_time: 0 },
        { status: 'failed', name: 'rounds half up', classname: 'spec.Rounding', execution_time: 0.2, system_output: 'expected 3, got 2' },
      ],
    },
    {
      name: 'jest',
      total_time: 1,
      total_count: 2,
      success_count: 1,
      failed_count: 0,
      skipped_count: 0,
      error_count: 1,
      test_cases: [
        { status: 'error', name: 'renders <b>', classname: 'ui.Button', file: 'src/button.test.ts', execution_time: 0.4 },
        { status: 'success', name: 'adds numbers', classname: 'ui.math', execution_time: 0.1 },
      ],
    },
  ],
});

describe('test report cases', () => {
  const cases = reportCases(report);

  it('lists every case with its suite, failures first and in report order within a status', () => {
    expect(cases.map((testCase) => [testCase.suite, testCase.status, testCase.name])).toEqual([
      ['rspec', 'failed', 'rounds half up'],
      ['jest', 'error', 'renders <b>'],
      ['rspec', 'skipped', 'divides by zero'],
      ['rspec', 'success', 'adds numbers'],
      ['jest', 'success', 'adds numbers'],
    ]);
    expect(new Set(cases.map((testCase) => testCase.key)).size).toBe(5);
  });

  it('finds cases by words of their name, class or file, in any case, within a suite and status', () => {
    expect(filterCases(cases, { suite: '', search: 'ADDS' }).map((testCase) => testCase.suite)).toEqual(['rspec', 'jest']);
    expect(filterCases(cases, { suite: 'jest', search: 'adds' })).toHaveLength(1);
    expect(filterCases(cases, { suite: '', search: 'rounding half' }).map((testCase) => testCase.name)).toEqual(['rounds half up']);
    expect(filterCases(cases, { suite: '', search: 'button.test' }).map((testCase) => testCase.name)).toEqual(['renders <b>']);
    expect(filterCases(cases, { suite: '', search: '', status: 'skipped' }).map((testCase) => testCase.name)).toEqual(['divides by zero']);
    expect(filterCases(cases, { suite: '', search: 'nothing like it' })).toEqual([]);
  });

  it('pages 2,000 cases as the shared paginator reads pages, clamping a page past the end', () => {
    const many = Array.from({ length: 2000 }, (_, index) => index);
    expect(pageOf(many, 2, 50)).toMatchObject({ page: 2, total: 2000, totalPages: 40, nextPage: 3, prevPage: 1, items: many.slice(50, 100) });
    expect(pageOf(many, 99, 50)).toMatchObject({ page: 40, nextPage: undefined });
    expect(pageOf([], 1, 50)).toMatchObject({ page: 1, totalPages: 1, items: [] });
  });
});
