import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { pipelinesQueries } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { CiStatusBadge } from '../../components/ci-status.tsx';
import { ChoiceSelect } from '../../components/choice-select.tsx';
import { useSetSearch } from '../../components/list-hooks.ts';
import { QueryStates } from '../../components/query-states.tsx';
import { EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { formatDuration } from '../../lib/duration.ts';
import { durationPoints, durationSummary } from './durations.ts';
import { PIPELINE_CHART_COUNTS, type PipelineChartSearch } from './search.ts';
import './pipelines.css';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

// uPlot comes with the chart only, never with the list or the entry
const DurationsChart = lazyPart(chunk(() => import('./durations-chart.tsx')), (module) => module.default, <div className="durations-chart" aria-hidden="true" />);

const COUNT_CHOICES = PIPELINE_CHART_COUNTS.map((count) => ({ value: String(count), label: `Last ${count}` }));

interface DurationsScreenProps {
  projectId: number;
  projectName?: string;
  defaultBranch?: string | null;
  search: PipelineChartSearch;
}

/** Duration and queue time of a ref's last pipelines: a slowdown at a glance, and in words. */
export function DurationsScreen({ projectId, projectName, defaultBranch, search }: DurationsScreenProps) {
  const connection = useConnection();
  const setSearch = useSetSearch<PipelineChartSearch>({ paged: false });
  const ref = search.ref || defaultBranch || '';
  const [draft, setDraft] = useState(ref);
  useEffect(() => setDraft(ref), [ref]);
  const durations = useQuery({ ...pipelinesQueries.durations(connection, projectId, ref, search.count), enabled: Boolean(ref) });
  return (
    <section className="screen" aria-labelledby="durations-heading">
      <header className="screen__header">
        <h1 id="durations-heading">{projectName ? `Pipeline durations of ${projectName}` : 'Pipeline durations'}</h1>
        <Link to="/projects/$projectId/pipelines" params={{ projectId: String(projectId) }} className="button">
          Back to pipelines
        </Link>
      </header>
      <form
        className="filter-bar"
        aria-label="Chart settings"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch({ ref: draft.trim() });
        }}
      >
        <label className="inline-field">
          <span>Branch or tag</span>
          <input className="input" value={draft} onChange={(event) => setDraft(event.target.value)} spellCheck={false} />
        </label>
        <button type="submit" className="button">
          Show
        </button>
        <ChoiceSelect label="Pipelines" value={String(search.count)} options={COUNT_CHOICES} onChange={(count) => setSearch({ count: Number(count) as PipelineChartSearch['count'] })} />
      </form>
      {!ref ? (
        <EmptyState title="Name a branch or tag to chart its pipelines." />
      ) : (
        <QueryStates query={durations}>
          {(pipelines) => {
            const points = durationPoints(pipelines);
            if (points.length === 0) return <EmptyState title={`No finished pipeline on ${ref} yet.`} />;
            return (
              <>
                <p role="status" aria-label="Durations summary">
                  {durationSummary(points)}
                </p>
                <figure className="durations-figure">
                  <DurationsChart points={points} />
                  <figcaption className="muted">
                    Duration (solid) and queue time (dashed) of the last {points.length} finished pipelines on {ref}, by creation time.
                  </figcaption>
                </figure>
                <details>
                  <summary>The same figures as a table</summary>
                  <div className="data-table__scroll">
                    <table>
                      <caption className="sr-only">Durations of the last pipelines on {ref}</caption>
                      <thead>
                        <tr>
                          <th scope="col">Pipeline</th>
                          <th scope="col">Status</th>
                          <th scope="col">Created</th>
                          <th scope="col">Duration</th>
                          <th scope="col">Queued</th>
                        </tr>
                      </thead>
                      <tbody>
                        {[...points].reverse().map((point) => (
                          <tr key={point.id}>
                            <td>#{point.id}</td>
                            <td>
                              <CiStatusBadge status={point.status} />
                            </td>
                            <td>
                              <Time value={point.created} />
                            </td>
                            <td>{formatDuration(point.duration) || '—'}</td>
                            <td>{formatDuration(point.queued) || '—'}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              </>
            );
          }}
        </QueryStates>
      )}
    </section>
  );
}
