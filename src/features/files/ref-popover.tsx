import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Popover } from 'radix-ui';
import { branchesQueries } from '../../api/branches.ts';
import { useConnection } from '../../api/react.ts';
import { repositoryQueries } from '../../api/repository.ts';
import { errorText } from '../../components/error-panel.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { RefButton } from './ref-button.tsx';

const SHOWN = 20;

export interface RefSwitcherProps {
  projectId: number;
  gitRef: string;
  onSelect: (ref: string) => void;
}

/**
 * Chooses the branch, tag or commit a screen shows: a filtered list of each, or a sha typed in.
 * Loaded apart from the screens (ref-switcher.tsx), it mounts open: its first press brought it.
 */
export default function RefPopover({ projectId, gitRef, onSelect }: RefSwitcherProps) {
  const [open, setOpen] = useState(true);
  const choose = (ref: string) => {
    setOpen(false);
    onSelect(ref);
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <RefButton gitRef={gitRef} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover ref-switcher" align="start" sideOffset={6} aria-label="Switch branch or tag">
          {open ? <RefLists projectId={projectId} gitRef={gitRef} onChoose={choose} /> : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function RefLists({ projectId, gitRef, onChoose }: { projectId: number; gitRef: string; onChoose: (ref: string) => void }) {
  const connection = useConnection();
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const branches = useQuery({ ...branchesQueries.list(connection, projectId, { search: search || undefined, per_page: SHOWN }), placeholderData: keepPreviousData });
  const tags = useQuery({ ...repositoryQueries.tags(connection, projectId, { search: search || undefined, per_page: SHOWN, order_by: 'version' }), placeholderData: keepPreviousData });
  const list = (label: string, query: typeof branches | typeof tags, names: string[] | undefined) => (
    <section>
      <h2 className="menu__label">{label}</h2>
      {query.isError ? (
        <p role="alert">
          {errorText(query.error)}{' '}
          <button type="button" className="button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
      ) : !names ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : names.length === 0 ? (
        <p className="muted">None{search ? ' match' : ''}.</p>
      ) : (
        <ul className="link-list" aria-label={label}>
          {names.map((name) => (
            <li key={name}>
              <button type="button" className={name === gitRef ? 'menu__item button--current' : 'menu__item'} aria-current={name === gitRef || undefined} onClick={() => onChoose(name)}>
                {name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
  return (
    <div className="ref-switcher__body">
      <SearchInput label="Filter branches and tags" value={search} onSearch={setSearch} placeholder="Filter…" delayMs={200} />
      <form
        className="inline-field"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) onChoose(typed.trim());
        }}
      >
        <label>
          <span>Commit SHA or ref</span>
          <input className="input" value={typed} onChange={(event) => setTyped(event.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <button type="submit" className="button" disabled={!typed.trim()}>
          Go
        </button>
      </form>
      {/* only the lists scroll: the filter and the sha field stay in reach on a short screen */}
      <div className="ref-switcher__lists">
        {list('Branches', branches, branches.data?.items.map((branch) => branch.name))}
        {list('Tags', tags, tags.data?.items.map((tag) => tag.name))}
      </div>
    </div>
  );
}
