import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Dialog } from 'radix-ui';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { useKeptOpenThroughDoubleClick } from '../../components/kept-open.ts';
import { errorText } from '../../components/error-panel.tsx';
import { useSettled } from '../../components/list-hooks.ts';
import { ADMIN_SECTION, contextSections, yourWork } from './nav-model.ts';
import { useNavContext } from './sidebar.tsx';

interface Target {
  key: string;
  label: string;
  /** Where it is: the section of a screen, the namespace of a project. */
  detail: string;
  to: string;
  params?: Record<string, string>;
}

interface Found {
  name: 'Screens' | 'Groups' | 'Projects';
  targets: Target[];
}

/** The screens of where the user is, and of everywhere, whose name or section matches. */
function screensMatching(context: ReturnType<typeof useNavContext>, query: string): Target[] {
  const place = context.title ? ` · ${context.title.name}` : '';
  const sections = [
    ...contextSections(context).map((section) => ({ ...section, where: `${section.name}${place}` })),
    { ...yourWork(context), where: 'Your work' },
    ...(context.isAdmin ? [{ ...ADMIN_SECTION, where: 'Admin' }] : []),
  ];
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return sections.flatMap((section) =>
    section.items
      .filter((item) => words.every((word) => `${item.label} ${section.where}`.toLowerCase().includes(word)))
      .map((item) => ({ key: `screen:${section.where}:${item.label}`, label: item.label, detail: section.where, to: item.to, params: item.params })),
  );
}

/** Ctrl/Cmd+K: type to jump to a screen, a group or a project; arrows choose, Enter goes. */
export function CommandPalette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const context = useNavContext();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useSettled(text.trim(), 200);
  // an administrator may belong to nothing, and manages everything
  const groups = useQuery({ ...groupsQueries.search(connection, search, context.isAdmin), enabled: open, placeholderData: keepPreviousData });
  const projects = useQuery({ ...projectsQueries.search(connection, search, context.isAdmin), enabled: open, placeholderData: keepPreviousData });
  const screens = screensMatching(context, text.trim());
  const found: Found[] = [
    { name: 'Screens', targets: screens },
    {
      name: 'Groups',
      targets: (groups.data?.items ?? []).map((group) => ({
        key: `group:${group.id}`,
        label: group.full_name,
        detail: 'Group',
        to: '/groups/$groupId/members',
        params: { groupId: String(group.id) },
      })),
    },
    {
      name: 'Projects',
      targets: (projects.data?.items ?? []).map((project) => ({
        key: `project:${project.id}`,
        label: project.name_with_namespace,
        detail: 'Project',
        to: '/projects/$projectId/members',
        params: { projectId: String(project.id) },
      })),
    },
  ];
  const flat = found.flatMap((group) => group.targets);
  const current = Math.min(active, Math.max(flat.length - 1, 0));
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  useEffect(() => setActive(0), [text]);

  const go = (target: Target | undefined) => {
    if (!target) return;
    onOpenChange(false);
    setText('');
    void navigate({ to: target.to as never, params: target.params as never });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const last = flat.length - 1;
    const moves: Record<string, number> = { ArrowDown: current >= last ? 0 : current + 1, ArrowUp: current <= 0 ? last : current - 1, Home: 0, End: last };
    if (event.key in moves && flat.length) {
      event.preventDefault();
      setActive(moves[event.key]);
      document.getElementById(optionId(moves[event.key]))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(flat[current]);
    }
  };
  const failed = groups.error ?? projects.error;
  const keptOpen = useKeptOpenThroughDoubleClick(open);
  let index = -1;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" {...keptOpen.overlay} />
        <Dialog.Content className="dialog palette" aria-describedby={undefined} {...keptOpen.content}>
          <Dialog.Title className="sr-only">Search or go to</Dialog.Title>
          <input
            className="input palette__input"
            role="combobox"
            aria-label="Search screens, groups and projects"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={flat.length ? optionId(current) : undefined}
            placeholder="Search screens, groups and projects"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <div id={listId} role="listbox" aria-label="Results" className="palette__results">
            {found.map((group) =>
              group.targets.length ? (
                <div key={group.name} role="group" aria-labelledby={`${listId}-${group.name}`}>
                  <div id={`${listId}-${group.name}`} className="palette__heading" role="presentation">
                    {group.name}
                  </div>
                  {group.targets.map((target) => {
                    index += 1;
                    const mine = index;
                    return (
                      <div
                        key={target.key}
                        id={optionId(mine)}
                        role="option"
                        aria-selected={mine === current}
                        className="palette__option"
                        onPointerMove={() => setActive(mine)}
                        onClick={() => go(target)}
                      >
                        <span>{target.label}</span>
                        <span className="muted"> {target.detail}</span>
                      </div>
                    );
                  })}
                </div>
              ) : null,
            )}
          </div>
          <p className="muted palette__status" role="status">
            {failed ? errorText(failed) : groups.isFetching || projects.isFetching ? 'Searching…' : flat.length ? `${flat.length} results` : 'Nothing matches.'}
          </p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
