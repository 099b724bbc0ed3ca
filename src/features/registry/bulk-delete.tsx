import { useState, type FormEvent } from 'react';
import { useConnection } from '../../api/react.ts';
import type { RegistryRepository } from '../../api/registry.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { Note } from '../../components/note.tsx';
import { useNotify } from '../../components/toast.tsx';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { CleanupRules } from '../../lib/registry-cleanup.ts';
import { DecisionList, TagsProgress, useCleanupTags, useAllTags, usePreview, useProtectedNames } from './cleanup-preview.tsx';
import { lastBulkRun, nextBulkRunAt, rememberBulkRun } from './last-run.ts';
import { useBulkDeleteTags } from './mutations.ts';
import type { ProtectionCaller } from './protection.ts';

interface BulkDeleteProps {
  projectId: number;
  repository: RegistryRepository;
  caller: ProtectionCaller;
  /** After the 202: the names the preview said would go, for the list to follow them going. */
  onAccepted: (names: ReadonlySet<string>) => void;
}

/** The bulk delete's fields as typed. */
export interface RuleDraft {
  nameRegexDelete: string;
  nameRegexKeep: string;
  keepN: string;
  olderThan: string;
}

export const EMPTY_DRAFT: RuleDraft = { nameRegexDelete: '', nameRegexKeep: '', keepN: '', olderThan: '' };

/** The draft as the rules module reads it: empty fields are no rule (keep_n is checked there, as typed). */
export function draftRules(draft: RuleDraft): CleanupRules {
  return {
    nameRegexDelete: draft.nameRegexDelete || null,
    nameRegexKeep: draft.nameRegexKeep || null,
    keepN: draft.keepN.trim() || null,
    olderThan: draft.olderThan.trim() || null,
  };
}

/**
 * Delete tags by rule (spec 3, 4.7), with what the platform lacks: while the rules are typed, the
 * exact tags that go and stay, each with its reason, over every tag of the image.
 */
export default function BulkDelete({ projectId, repository, caller, onAccepted }: BulkDeleteProps) {
  const connection = useConnection();
  const notify = useNotify();
  const bulk = useBulkDeleteTags();
  const [draft, setDraft] = useState<RuleDraft>(EMPTY_DRAFT);
  const [attempted, setAttempted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [now] = useState(() => Date.now());
  const all = useAllTags(projectId, repository.id);
  const protection = useProtectedNames(projectId, caller, all.rows);
  const tags = useCleanupTags(all.rows, protection.protectedNames);
  const rules = draftRules(draft);
  const preview = usePreview(tags, rules, now);
  const ready = all.done && protection.ready;
  const last = lastBulkRun(connection.instanceUrl, repository.id);
  const nextRun = nextBulkRunAt(last, Date.now());
  const undated = rules.keepN || rules.olderThan ? tags.filter((tag) => tag.createdAt === null).length : 0;
  const warning = (field: keyof RuleDraft) => preview.warnings[field];

  const errors = preview.errors;
  // an empty delete expression is an error once the user tries to send, not while the form is fresh
  const shownError = (field: keyof RuleDraft) => (field === 'nameRegexDelete' && !draft.nameRegexDelete && !attempted ? undefined : errors[field]);
  const set = (field: keyof RuleDraft) => (event: { target: { value: string } }) => setDraft((previous) => ({ ...previous, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (Object.keys(errors).length || !preview.decisions || preview.stale || !ready || nextRun !== null || preview.deleted === 0) return;
    bulk.reset();
    setConfirming(true);
  };

  const send = () => {
    const names = new Set(preview.decisions?.filter((decision) => decision.deleted).map((decision) => decision.name));
    bulk.mutate(
      {
        projectId,
        repositoryId: repository.id,
        rules: {
          name_regex_delete: draft.nameRegexDelete,
          name_regex_keep: draft.nameRegexKeep || undefined,
          keep_n: draft.keepN.trim() === '' ? undefined : Number(draft.keepN.trim()),
          older_than: draft.olderThan.trim() || undefined,
        },
      },
      {
        onSuccess: () => {
          rememberBulkRun(connection.instanceUrl, repository.id, Date.now());
          notify(`Deleting ${formatCount(names.size)} tags of ${repository.path} in the background.`);
          setConfirming(false);
          onAccepted(names);
        },
      },
    );
  };

  return (
    <section aria-labelledby="bulk-delete-heading">
      <h2 id="bulk-delete-heading">Delete tags by rule</h2>
      <p className="muted">
        The rules run as the platform runs them: <code>latest</code> and protected tags stay, the keep expression wins over the delete expression, the newest tags
        are kept, then only tags older than the age go. Expressions are RE2 and match the whole tag name.
      </p>
      {nextRun !== null ? (
        <Note>
          A bulk delete was sent for this image at {formatDateTime(new Date(last!).toISOString())}. The platform runs at most one an hour per image: the next can be sent
          from {formatDateTime(new Date(nextRun).toISOString())}. The preview still shows what it would do.
        </Note>
      ) : null}
      {protection.unreadable ? <Note>Protection rules are readable by Maintainers only: tags they protect are kept by the platform but not marked here.</Note> : null}
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Delete tags matching" error={shownError('nameRegexDelete')} hint={warning('nameRegexDelete') ?? 'Required. RE2, the whole name: .* deletes every tag the other rules allow.'}>
          <input className="input" autoComplete="off" spellCheck={false} value={draft.nameRegexDelete} onChange={set('nameRegexDelete')} />
        </Field>
        <Field label="Keep tags matching" error={shownError('nameRegexKeep')} hint={warning('nameRegexKeep') ?? 'Optional. RE2, the whole name; wins over the delete expression.'}>
          <input className="input" autoComplete="off" spellCheck={false} value={draft.nameRegexKeep} onChange={set('nameRegexKeep')} />
        </Field>
        <Field label="Keep the newest" error={shownError('keepN')} hint="Optional. How many of the matching tags to keep, newest first.">
          <input className="input" inputMode="numeric" autoComplete="off" value={draft.keepN} onChange={set('keepN')} />
        </Field>
        <Field label="Delete only tags older than" error={shownError('olderThan')} hint="Optional. For example 1h, 7d, 2 weeks, 1month.">
          <input className="input" autoComplete="off" spellCheck={false} value={draft.olderThan} onChange={set('olderThan')} />
        </Field>
        <TagsProgress loaded={all.rows.length} total={repository.tags_count} done={all.done} error={all.query.isError ? all.query.error : null} onRetry={() => void all.query.fetchNextPage()} />
        {undated ? <Note>{formatCount(undated)} tags have no creation time: the age and the newest-N rules keep them.</Note> : null}
        {attempted && preview.decisions && preview.deleted === 0 ? <Note>These rules delete no tag.</Note> : null}
        <div className="dialog__actions">
          <button type="submit" className="button button--danger" disabled={!ready || preview.stale || nextRun !== null || bulk.isPending}>
            {preview.decisions && ready ? `Delete ${formatCountOf(preview.deleted, 'tag', 'tags')}` : 'Delete tags'}
          </button>
        </div>
      </form>
      {ready ? <DecisionList preview={preview} rules={rules} label="Preview of the bulk delete" /> : null}
      {confirming ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (!open ? setConfirming(false) : undefined)}
          title={`Delete ${formatCountOf(preview.deleted, 'tag', 'tags')}?`}
          description={
            <>
              {formatCount(preview.deleted)} of the {formatCount(tags.length)} tags of {repository.path} are deleted in the background, {formatCount(preview.kept)} are kept, as
              the preview shows. The platform allows one bulk delete an hour per image; it cannot be undone.
            </>
          }
          confirmLabel={`Delete ${formatCountOf(preview.deleted, 'tag', 'tags')}`}
          destructive
          write={bulk}
          error={bulk.error ? errorText(bulk.error) : null}
          onConfirm={send}
        />
      ) : null}
    </section>
  );
}
