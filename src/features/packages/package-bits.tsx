import type { PackagePipeline } from '../../api/packages.ts';
import { ciStatusText } from '../../components/ci-status.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import './packages.css';

const TYPE_LABELS: Record<string, string> = {
  conan: 'Conan',
  maven: 'Maven',
  npm: 'npm',
  pypi: 'PyPI',
  composer: 'Composer',
  nuget: 'NuGet',
  helm: 'Helm',
  terraform_module: 'Terraform module',
  golang: 'Go',
  generic: 'Generic',
};

/** The platform's name of a package type; an unknown (newer) type shows as the API names it. */
export function packageTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type;
}

const WARNING_STATUSES = ['error', 'pending_destruction', 'processing'];

/** spec 3, 2.6: the status as text; `default` is the published state. */
export function PackageStatusBadge({ status }: { status: string }) {
  if (status === 'default') return <span className="badge">published</span>;
  return <span className={WARNING_STATUSES.includes(status) ? 'badge badge--warning' : 'badge'}>{status.replace(/_/g, ' ')}</span>;
}

export function PackageTags({ tags }: { tags: readonly string[] }) {
  if (!tags.length) return <span className="muted">—</span>;
  return (
    <ul className="inline-list" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className="badge">
          {tag}
        </li>
      ))}
    </ul>
  );
}

/** A pipeline that built a package: its number, linked to the pipeline's screen, and its status. */
export function PackagePipelineLink({ projectId, pipeline }: { projectId: number; pipeline: PackagePipeline }) {
  return (
    <span className="nowrap">
      <RouteLink to="/projects/$projectId/pipelines/$pipelineId" params={{ projectId, pipelineId: pipeline.id }} aria-label={`Pipeline #${pipeline.id}`}>
        #{pipeline.id}
      </RouteLink>{' '}
      <span className="muted">{ciStatusText(pipeline.status)}</span>
    </span>
  );
}
