import { useId, useMemo, useState } from 'react';
import { useConnection } from '../api/react.ts';
import { Markdown, type TaskToggle } from './markdown.tsx';
import { projectReferenceHref } from './project-references.ts';
import './comments.css';

/** Text written in a project (an issue's, a merge request's, a comment) as Markdown: references open console screens of that project. */
export function ProjectMarkdown({ projectId, source, onToggleTask, tasksBusy }: { projectId: number; source: string; onToggleTask?: TaskToggle; tasksBusy?: boolean }) {
  const connection = useConnection();
  const references = useMemo(() => ({ context: { project: String(projectId) }, href: projectReferenceHref(projectId) }), [projectId]);
  return <Markdown source={source} instanceUrl={connection.instanceUrl} references={references} onToggleTask={onToggleTask} tasksBusy={tasksBusy} />;
}

/** A Markdown text area with a Write / Preview switch; the preview renders what will be posted. */
export function NoteEditor({ projectId, label, value, onChange, disabled, autoFocus }: { projectId: number; label: string; value: string; onChange: (value: string) => void; disabled?: boolean; autoFocus?: boolean }) {
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const id = useId();
  return (
    <div className="note-editor">
      <div role="tablist" aria-label={`${label}: write or preview`} className="tabs">
        {(['write', 'preview'] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`${id}-${tab}`}
            aria-selected={mode === tab}
            aria-controls={`${id}-panel`}
            className={mode === tab ? 'tabs__tab button--current' : 'tabs__tab'}
            onClick={() => setMode(tab)}
          >
            {tab === 'write' ? 'Write' : 'Preview'}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${mode}`}>
        {mode === 'write' ? (
          <div className="field">
            <label className="field__label" htmlFor={`${id}-text`}>
              {label}
            </label>
            <textarea id={`${id}-text`} className="input" rows={6} value={value} disabled={disabled} autoFocus={autoFocus} onChange={(event) => onChange(event.target.value)} />
          </div>
        ) : value.trim() ? (
          <ProjectMarkdown projectId={projectId} source={value} />
        ) : (
          <p className="muted">Nothing to preview.</p>
        )}
      </div>
    </div>
  );
}
