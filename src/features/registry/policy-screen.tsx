import { useQuery } from '@tanstack/react-query';
import { useConnection } from '../../api/react.ts';
import { registryQueries } from '../../api/registry.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { Note } from '../../components/note.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { RoutePending } from '../../components/states.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { maintainerRefusal } from './permissions.ts';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

// the form and its preview come with the rules engine (RE2), in a chunk of their own
const PolicyEditor = lazyPart(chunk(() => import('./policy-editor.tsx')), (module) => module.default, <RoutePending />);

/** The project's container registry cleanup policy, edited with the preview of its next run. */
export function PolicyScreen({ projectId, projectName }: { projectId: number; projectName?: string }) {
  const connection = useConnection();
  const project = useQuery(registryQueries.cleanupPolicy(connection, projectId));
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refusal = maintainerRefusal(caller, 'Changing the cleanup policy');
  return (
    <section className="screen" aria-labelledby="cleanup-policy-heading">
      <header className="screen__header">
        <h1 id="cleanup-policy-heading">{projectName ? `Cleanup policy of ${projectName}` : 'Cleanup policy'}</h1>
        <RouteLink className="button" to="/projects/$projectId/registry/" params={{ projectId }}>
          Container registry
        </RouteLink>
      </header>
      <p className="muted">On its schedule the policy deletes, in every image of the project, the tags its rules select: the same rules as a bulk delete.</p>
      {project.isPending || (pending && !failure) ? (
        <RoutePending />
      ) : !project.data ? (
        <ErrorPanel error={project.error} onRetry={() => void project.refetch()} />
      ) : (
        <>
          {/* a role that could not be read shows the policy, not its editing */}
          <RoleUnread failure={failure} withheld="changes are not offered" />
          <Note>{failure ? null : refusal}</Note>
          <PolicyEditor projectId={projectId} policy={project.data.container_expiration_policy} caller={caller} refusal={failure ? 'Your role here could not be read.' : refusal} />
        </>
      )}
    </section>
  );
}
