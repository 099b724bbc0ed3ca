import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { loadTestReport } from '../../../../../features/jobs/route-options.ts';
import { TestReportView } from '../../../../../features/jobs/test-report.tsx';
import { TEST_REPORT_SEARCH_DEFAULTS, testReportSearchSchema, type TestReportSearch } from '../../../../../features/jobs/test-report-search.ts';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/$pipelineId/test-report')({
  validateSearch: testReportSearchSchema,
  search: { middlewares: [stripSearchParams(TEST_REPORT_SEARCH_DEFAULTS)] },
  // the whole report is one answer: searching and paging happen in the page
  loader: ({ context, params }) => {
    const { projectId, pipelineId } = idParams(params);
    return loadTestReport(context, projectId, pipelineId);
  },
  component: TestReportRoute,
});

function TestReportRoute() {
  const { projectId, pipelineId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearch = (change: Partial<TestReportSearch>) => void navigate({ search: (previous) => ({ ...previous, ...change }), replace: true, resetScroll: false });
  return <TestReportView projectId={Number(projectId)} pipelineId={Number(pipelineId)} search={search} onSearch={onSearch} />;
}
