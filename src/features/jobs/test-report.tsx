import { useMemo, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { pipelinesQueries, type TestReport as Report } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { SearchLink } from '../../components/search-link.tsx';
import { EmptyState } from '../../components/states.tsx';
import type { TestReportSearch } from './test-report-search.ts';
import { CiStatusBadge } from '../../components/ci-status.tsx';
import { CASE_STATUSES, filterCases, pageOf, reportCases, type CaseStatus, type ReportCase } from './test-report-model.ts';
import { formatCount } from '../../lib/numbers.ts';

const STATUS_WORDS: Record<CaseStatus, string> = { failed: 'Failed', error: 'Errors', skipped: 'Skipped', success: 'Passed' };

/** "1.25 s", "12 ms": a test's or suite's time in seconds. */
function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return value < 1 ? `${Math.round(value * 1000)} ms` : `${value.toFixed(2)} s`;
}

/**
 * The pipeline's test report: totals, suites with their counts and time, and the cases (failures
 * first) searched and paged in the page, so 2,000 cases paint as fast as 20. A failure's output
 * opens in a dialog, as text.
 */
export function TestReportView({
  projectId,
  pipelineId,
  search,
  onSearch,
}: {
  projectId: number;
  pipelineId: number;
  search: TestReportSearch;
  onSearch: (change: Partial<TestReportSearch>) => void;
}) {
  const connection = useConnection();
  const report = useSuspenseQuery(pipelinesQueries.testReport(connection, projectId, pipelineId)).data;
  const cases = useMemo(() => reportCases(report), [report]);
  const found = useMemo(() => filterCases(cases, search), [cases, search]);
  const page = pageOf(found, search.page, search.per_page);
  const [opened, setOpened] = useState<ReportCase | null>(null);
  if (!report.test_suites.length) return <EmptyState title="No test report">The jobs of this pipeline reported no tests (`artifacts:reports:junit`).</EmptyState>;
  return (
    <>
      <Totals report={report} />
      <SuitesTable report={report} />
      <h2>Test cases</h2>
      <div className="filter-bar">
        <SearchInput label="Search test cases" value={search.search} onSearch={(text) => onSearch({ search: text, page: 1 })} placeholder="Name, class or file" />
        <label className="inline-field">
          <span>Suite</span>
          <select className="input" value={search.suite} onChange={(event) => onSearch({ suite: event.target.value, page: 1 })}>
            <option value="">All suites</option>
            {report.test_suites.map((suite) => (
              <option key={suite.name} value={suite.name}>
                {suite.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Status</span>
          <select className="input" value={search.status ?? ''} onChange={(event) => onSearch({ status: (event.target.value || undefined) as CaseStatus | undefined, page: 1 })}>
            <option value="">Any status</option>
            {CASE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_WORDS[status]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {found.length === 0 ? (
        <EmptyState title="No test cases match">Clear the search, suite or status to see more.</EmptyState>
      ) : (
        <DataTable caption="Test cases" columns={caseColumns(setOpened)} data={page.items} getRowId={(testCase) => testCase.key} footer={<Paginator page={page} label="Test case pages" />} />
      )}
      <Dialog
        open={opened !== null}
        onOpenChange={(open) => (!open ? setOpened(null) : undefined)}
        title={opened ? `Output of ${opened.name}` : ''}
        description={opened ? `${opened.suite}${opened.classname ? ` · ${opened.classname}` : ''}` : ''}
      >
        {opened ? <CaseOutput testCase={opened} /> : null}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={() => setOpened(null)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}

function Totals({ report }: { report: Report }) {
  return (
    <p className="counts" aria-label="Totals">
      <span>{formatCount(report.total_count)} tests</span>
      <span>{formatCount(report.failed_count)} failed</span>
      <span>{formatCount(report.error_count)} errors</span>
      <span>{formatCount(report.skipped_count)} skipped</span>
      <span>{formatCount(report.success_count)} passed</span>
      <span>{seconds(report.total_time)}</span>
    </p>
  );
}

type Suite = Report['test_suites'][number];

function SuitesTable({ report }: { report: Report }) {
  const columns: ColumnDef<Suite>[] = [
    {
      id: 'name',
      header: 'Suite',
      cell: ({ row }) => (
        <SearchLink search={(previous) => ({ ...previous, suite: row.original.name, page: 1 })} aria-label={`Cases of suite ${row.original.name}`}>
          {row.original.name}
        </SearchLink>
      ),
    },
    { id: 'total', header: 'Tests', cell: ({ row }) => formatCount(row.original.total_count) },
    { id: 'failed', header: 'Failed', cell: ({ row }) => formatCount(row.original.failed_count) },
    { id: 'errors', header: 'Errors', cell: ({ row }) => formatCount(row.original.error_count) },
    { id: 'skipped', header: 'Skipped', cell: ({ row }) => formatCount(row.original.skipped_count) },
    { id: 'passed', header: 'Passed', cell: ({ row }) => formatCount(row.original.success_count) },
    { id: 'time', header: 'Time', cell: ({ row }) => seconds(row.original.total_time) },
    { id: 'error', header: 'Suite error', cell: ({ row }) => row.original.suite_error ?? '' },
  ];
  return (
    <>
      <h2>Suites</h2>
      <DataTable caption="Test suites" columns={columns} data={report.test_suites} getRowId={(suite) => suite.name} />
    </>
  );
}

function caseColumns(onOpen: (testCase: ReportCase) => void): ColumnDef<ReportCase>[] {
  return [
    { id: 'status', header: 'Status', cell: ({ row }) => <CiStatusBadge status={row.original.status} /> },
    { id: 'name', header: 'Name', cell: ({ row }) => <span className="breakable">{row.original.name}</span> },
    { id: 'classname', header: 'Class', cell: ({ row }) => <span className="breakable">{row.original.classname ?? ''}</span> },
    { id: 'suite', header: 'Suite', cell: ({ row }) => row.original.suite },
    { id: 'time', header: 'Time', cell: ({ row }) => seconds(row.original.execution_time) },
    {
      id: 'output',
      header: 'Output',
      cell: ({ row }) =>
        row.original.system_output || row.original.stack_trace ? (
          <button type="button" className="button" onClick={() => onOpen(row.original)} aria-label={`View output of ${row.original.name}`}>
            View output
          </button>
        ) : null,
    },
  ];
}

/** A case's output and stack trace, as text. */
function CaseOutput({ testCase }: { testCase: ReportCase }) {
  return (
    <>
      {testCase.file ? (
        <p>
          File <code>{testCase.file}</code>
        </p>
      ) : null}
      {testCase.system_output ? (
        <>
          <h3>Output</h3>
          <pre className="test-output">{testCase.system_output}</pre>
        </>
      ) : null}
      {testCase.stack_trace ? (
        <>
          <h3>Stack trace</h3>
          <pre className="test-output">{testCase.stack_trace}</pre>
        </>
      ) : null}
    </>
  );
}
