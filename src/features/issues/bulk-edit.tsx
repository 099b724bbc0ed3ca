import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { issuesQueries, moveIssue, updateIssue, type IssueChanges, type IssueScope } from '../../api/issues.ts';
import type { BulkTarget } from './bulk-target.ts';
import { labelsQueries } from '../../api/labels.ts';
import { milestonesQueries } from '../../api/milestones.ts';
import { projectsQueries } from '../../api/projects.ts';
import { usersQueries } from '../../api/users.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import type { Connection } from '../../api/http.ts';
import { useWrite } from '../../components/use-write.ts';
import { useSettled } from '../../components/list-hooks.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';

export type BulkAction = { kind: 'edit'; changes: IssueChanges } | { kind: 'move'; toProjectId: number; toProjectName: string };

export interface BulkVariables {
  targets: BulkTarget[];
  action: BulkAction;
}

export interface BulkOutcome {
  target: BulkTarget;
  /** The error's text when this issue's write failed; undefined when it went through. */
  failure?: string;
}

// a few writes at a time: fast enough for a page of issues, gentle on the instance's rate limit
const CONCURRENCY = 4;

/** Sends one write per issue, `CONCURRENCY` at a time, and reports each outcome; it never throws. */
export async function runBulk(connection: Connection, { targets, action }: BulkVariables, onProgress: (outcomes: BulkOutcome[]) => void): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  let next = 0;
  const one = async (target: BulkTarget) => {
    try {
      if (action.kind === 'edit') await updateIssue(connection, { projectId: target.projectId, iid: target.iid, changes: action.changes });
      else await moveIssue(connection, { projectId: target.projectId, iid: target.iid, toProjectId: action.toProjectId });
      outcomes.push({ target });
    } catch (error) {
      outcomes.push({ target, failure: errorText(error) });
    }
    onProgress([...outcomes]);
  };
  const worker = async () => {
    while (next < targets.length) await one(targets[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
  // in the selection's order, whatever order the answers came in
  return targets.map((target) => outcomes.find((outcome) => outcome.target.id === target.id)!);
}

/** The bulk write: one press sends one write per selected issue, then refreshes every issue list and count. */
function useBulkWrite(onProgress: (outcomes: BulkOutcome[]) => void) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite<BulkOutcome[], BulkVariables>({
    send: (variables) => runBulk(connection, variables, onProgress),
    refresh: () => queryClient.invalidateQueries({ queryKey: issuesQueries.all() }),
  });
}

function splitNames(text: string): string[] {
  return [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))];
}

interface BulkEditProps {
  scope: IssueScope;
  selected: BulkTarget[];
  /** After the writes: keep selected only the issues whose write failed. */
  onDone: (failedIds: number[]) => void;
}

/**
 * Edits the selected issues together: labels added and removed, milestone, assignee, state; or
 * moves them to another project. A group's selection may span subgroups: every write goes to
 * the issue's own project. Shows progress, then what happened to each issue.
 */
export function BulkEdit({ scope, selected, onDone }: BulkEditProps) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const [progress, setProgress] = useState<BulkOutcome[]>([]);
  const write = useBulkWrite(setProgress);
  const named = scope !== 'instance';
  const [addLabels, setAddLabels] = useState('');
  const [removeLabels, setRemoveLabels] = useState('');
  const [milestone, setMilestone] = useState('');
  const [assignee, setAssignee] = useState('');
  const [stateEvent, setStateEvent] = useState('');
  const [problem, setProblem] = useState<string>();
  const [projectSearch, setProjectSearch] = useState('');
  const [toProject, setToProject] = useState('');
  const [confirmingMove, setConfirmingMove] = useState(false);
  /** The last run's outcome: it stays on screen when the selection changes after it. */
  const [report, setReport] = useState<{ outcomes: BulkOutcome[]; total: number; verb: string } | null>(null);
  const labelListId = useId();
  const userListId = useId();
  const problemId = useId();
  const count = selected.length;
  const plural = count === 1 ? 'issue' : 'issues';

  const labels = useQuery({ ...labelsQueries.list(connection, named ? scope : { project: 0 }, { per_page: 100, page: 1 }), enabled: named });
  const milestones = useQuery({ ...milestonesQueries.list(connection, named ? scope : { project: 0 }, { state: 'active', include_ancestors: true, per_page: 100, page: 1 }), enabled: named });
  // suggestions for the name being typed: the text after the last comma
  const typing = assignee.split(',').pop()!.trim().replace(/^@/, '');
  const settledTyping = useSettled(typing, 250);
  const users = useQuery({ ...usersQueries.search(connection, settledTyping), enabled: typing.length > 0 && typing !== 'None' });
  const projects = useQuery(projectsQueries.search(connection, projectSearch.trim(), isAdmin));
  const chosenProject = projects.data?.items.find((project) => String(project.id) === toProject);

  // a new selection is a new press: the same changes may go again to other issues
  const selectionKey = selected.map((target) => target.id).join(',');
  const lastKey = useRef(selectionKey);
  useEffect(() => {
    if (lastKey.current !== selectionKey && !write.isPending) {
      lastKey.current = selectionKey;
      write.reset();
    }
  }, [selectionKey, write]);

  const finish = (outcomes: BulkOutcome[], verb: string) => {
    setReport({ outcomes, total: outcomes.length, verb });
    onDone(outcomes.filter((outcome) => outcome.failure).map((outcome) => outcome.target.id));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changes: IssueChanges = {};
    const added = splitNames(addLabels);
    const removed = splitNames(removeLabels);
    if (added.length) changes.add_labels = added;
    if (removed.length) changes.remove_labels = removed;
    if (milestone) changes.milestone_id = milestone === 'none' ? null : Number(milestone);
    if (stateEvent) changes.state_event = stateEvent as 'close' | 'reopen';
    const names = splitNames(assignee).map((name) => name.replace(/^@/, ''));
    if (names.length === 1 && names[0] === 'None') changes.assignee_ids = [];
    else if (names.length) {
      // usernames to ids, each through the people search the suggestions use
      const found = await Promise.all(
        names.map(async (name) => {
          const page = await queryClient.fetchQuery(usersQueries.search(connection, name)).catch(() => null);
          return { name, user: page?.items.find((item) => item.username.toLowerCase() === name.toLowerCase()) };
        }),
      );
      const unknown = found.filter((item) => !item.user).map((item) => item.name);
      if (unknown.length) {
        setProblem(`No active user is named ${unknown.join(', ')}.`);
        return;
      }
      changes.assignee_ids = found.map((item) => item.user!.id);
    }
    if (!Object.keys(changes).length) {
      setProblem('Choose at least one change.');
      return;
    }
    setProblem(undefined);
    setProgress([]);
    setReport(null);
    write.mutate({ targets: selected, action: { kind: 'edit', changes } }, { onSuccess: (outcomes) => finish(outcomes, 'changed') });
  };

  const move = () => {
    if (!chosenProject) return;
    setProgress([]);
    setReport(null);
    write.mutate({ targets: selected, action: { kind: 'move', toProjectId: chosenProject.id, toProjectName: chosenProject.path_with_namespace } }, {
      onSuccess: (outcomes) => {
        setConfirmingMove(false);
        finish(outcomes, 'moved');
      },
    });
  };

  const running = write.isPending && write.status === 'pending';
  const outcomes = running ? progress : (report?.outcomes ?? []);
  const total = running ? (write.variables?.targets.length ?? count) : (report?.total ?? 0);
  const failed = outcomes.filter((outcome) => outcome.failure);
  return (
    <section className="bulk-panel" aria-label="Bulk edit">
      <form className="filter-bar" aria-label="Edit selected issues" onSubmit={(event) => void submit(event)}>
        <label className="inline-field">
          <span>Add labels</span>
          <input className="input" list={labels.data ? labelListId : undefined} value={addLabels} placeholder="Comma-separated" onChange={(event) => setAddLabels(event.target.value)} />
        </label>
        <label className="inline-field">
          <span>Remove labels</span>
          <input className="input" list={labels.data ? labelListId : undefined} value={removeLabels} placeholder="Comma-separated" onChange={(event) => setRemoveLabels(event.target.value)} />
        </label>
        {labels.data ? (
          <datalist id={labelListId}>
            {labels.data.items.map((label) => (
              <option key={label.id} value={label.name} />
            ))}
          </datalist>
        ) : null}
        <label className="inline-field">
          <span>Set milestone</span>
          <select className="input" value={milestone} onChange={(event) => setMilestone(event.target.value)}>
            <option value="">No change</option>
            <option value="none">No milestone</option>
            {milestones.data?.items.map((item) => (
              <option key={item.id} value={item.id}>
                {item.title}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Set assignees</span>
          <input className="input" list={userListId} value={assignee} placeholder="Usernames, comma-separated; None unassigns" onChange={(event) => setAssignee(event.target.value)} />
        </label>
        <datalist id={userListId}>
          <option value="None" />
          {users.data?.items.map((user) => (
            <option key={user.id} value={user.username} />
          ))}
        </datalist>
        <label className="inline-field">
          <span>Set state</span>
          <select className="input" value={stateEvent} onChange={(event) => setStateEvent(event.target.value)}>
            <option value="">No change</option>
            <option value="close">Close</option>
            <option value="reopen">Reopen</option>
          </select>
        </label>
        <button type="submit" className="button button--primary" disabled={write.isPending || count === 0} aria-busy={write.isPending || undefined}>
          {`Apply to ${count} ${plural}`}
        </button>
        {problem ? (
          <span className="field__error" id={problemId} role="alert">
            {problem}
          </span>
        ) : null}
      </form>
      <form className="filter-bar" aria-label="Move selected issues" onSubmit={(event) => (event.preventDefault(), chosenProject && setConfirmingMove(true))}>
        <label className="inline-field">
          <span>Find a project</span>
          <input className="input input--search" type="search" value={projectSearch} onChange={(event) => setProjectSearch(event.target.value)} />
        </label>
        <label className="inline-field">
          <span>Move to project</span>
          <select className="input" value={toProject} onChange={(event) => setToProject(event.target.value)}>
            <option value="">Choose a project</option>
            {projects.data?.items.map((project) => (
              <option key={project.id} value={project.id}>
                {project.path_with_namespace}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={!chosenProject || write.isPending || count === 0}>
          {`Move ${count} ${plural}`}
        </button>
      </form>
      <ConfirmDialog
        open={confirmingMove}
        onOpenChange={setConfirmingMove}
        title={`Move ${count} ${plural} to ${chosenProject?.path_with_namespace ?? 'another project'}?`}
        description={`Each issue is moved through its own project: a new issue is made in ${chosenProject?.path_with_namespace ?? 'the chosen project'} with its labels and milestone matched by name, and the original is closed and points to it.`}
        confirmLabel={`Move ${count} ${plural}`}
        onConfirm={move}
        write={write}
      />
      {running || report || write.isError ? (
        <div className="bulk-result">
          <p role="status">
            {running
              ? `Working: ${outcomes.length} of ${total} done`
              : report
                ? `${outcomes.length - failed.length} of ${total} ${report.verb}${failed.length ? `, ${failed.length} failed` : ''}.`
                : errorText(write.error)}
          </p>
          <progress aria-label="Bulk edit progress" value={outcomes.length} max={Math.max(total, 1)} />
          {outcomes.length ? (
            <ul aria-label="Result per issue">
              {outcomes.map((outcome) => (
                <li key={outcome.target.id}>
                  {outcome.target.reference}: {outcome.failure ? `failed: ${outcome.failure}` : 'done'}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
