import { describe, expect, it } from 'vitest';
import { groupName, parseJunit, testReport, testReportSummary } from './junit.ts';

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="math" file="spec/math_spec.rb">
    <testcase classname="Math" name="adds" time="0.5"/>
    <testcase classname="Math" name="divides &lt;by zero&gt;" time="1.25">
      <failure message="expected 1 got 2">Failure/Error: expect(1).to eq(2)
  at spec/math_spec.rb:10</failure>
      <system-out>some output</system-out>
    </testcase>
    <testcase classname="Math" name="skips" time="0"><skipped/></testcase>
    <testsuite name="nested">
      <testcase classname="Nested" name="breaks" time="2" file="spec/nested_spec.rb"><error message="boom"/></testcase>
    </testsuite>
  </testsuite>
</testsuites>`;

describe('parseJunit', () => {
  it('reads cases with status, time, classname, file, output and trace', () => {
    const [suite] = parseJunit(REPORT);
    expect(suite.error).toBeNull();
    expect(suite.cases.map((c) => [c.name, c.status, c.executionTime, c.file])).toEqual([
      ['adds', 'success', 0.5, 'spec/math_spec.rb'],
      ['divides <by zero>', 'failed', 1.25, 'spec/math_spec.rb'],
      ['skips', 'skipped', 0, 'spec/math_spec.rb'],
      ['breaks', 'error', 2, 'spec/nested_spec.rb'],
    ]);
    const failed = suite.cases[1];
    expect(failed.stackTrace).toBe('Failure/Error: expect(1).to eq(2)\n  at spec/math_spec.rb:10');
    expect(failed.systemOutput).toBe('Failure/Error: expect(1).to eq(2)\n  at spec/math_spec.rb:10\nsome output');
    expect(suite.cases[3].systemOutput).toBe('boom');
  });

  it('reads a lone <testsuite> root', () => {
    const [suite] = parseJunit('<testsuite name="one"><testcase name="a" classname="A"/></testsuite>');
    expect(suite.cases).toHaveLength(1);
  });

  it('turns a broken file into an error, never a throw', () => {
    const [suite] = parseJunit('<testsuites><testsuite>');
    expect(suite.error).toMatch(/^JUnit XML parsing failed: \d+:\d+: FATAL: /);
    expect(parseJunit('not xml at all')[0].error).toMatch(/^JUnit XML parsing failed/);
  });
});

describe('test report JSON', () => {
  const results = [
    { jobName: 'rspec 1/2', jobId: 11, suites: parseJunit(REPORT) },
    { jobName: 'rspec 2/2', jobId: 12, suites: parseJunit('<testsuite><testcase name="z" classname="Z" time="3"/></testsuite>') },
    { jobName: 'broken', jobId: 13, suites: parseJunit('<oops') },
  ];

  it('groups suites by job group name and counts as the platform does', () => {
    const report = testReport(results);
    expect(report).toMatchObject({ total_time: 6.75, total_count: 5, success_count: 2, failed_count: 1, skipped_count: 1, error_count: 1 });
    const [rspec, broken] = report.test_suites;
    expect(rspec.name).toBe('rspec');
    expect(rspec.test_cases.map((c) => c.name)).toEqual(['breaks', 'divides <by zero>', 'z', 'adds', 'skips']);
    expect(rspec.test_cases[1]).toEqual({
      status: 'failed',
      name: 'divides <by zero>',
      classname: 'Math',
      file: 'spec/math_spec.rb',
      execution_time: 1.25,
      system_output: 'Failure/Error: expect(1).to eq(2)\n  at spec/math_spec.rb:10\nsome output',
      stack_trace: 'Failure/Error: expect(1).to eq(2)\n  at spec/math_spec.rb:10',
      recent_failures: null,
    });
    expect(broken).toMatchObject({ name: 'broken', total_count: 0, test_cases: [] });
    expect(broken.suite_error).toMatch(/^JUnit XML parsing failed/);
  });

  it('summarizes with build ids and the first suite error', () => {
    const summary = testReportSummary(results);
    expect(summary.total).toMatchObject({ time: 6.75, count: 5, success: 2, failed: 1, skipped: 1, error: 1 });
    expect(summary.total.suite_error).toMatch(/^JUnit XML parsing failed/);
    expect(summary.test_suites[0]).toMatchObject({ name: 'rspec', build_ids: [11, 12], total_count: 5, suite_error: null });
    expect('test_cases' in summary.test_suites[0]).toBe(false);
  });

  it('names groups like the platform', () => {
    expect(groupName('rspec 1/3')).toBe('rspec');
    expect(groupName('build: [linux, amd64]')).toBe('build');
    expect(groupName('plain job')).toBe('plain job');
  });
});
