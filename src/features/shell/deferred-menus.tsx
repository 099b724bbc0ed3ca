import { useEffect, useState, type ComponentProps } from 'react';
import type { SavedConnection } from '../../api/session.ts';
import { useActiveSession } from '../../api/react.ts';
import { Avatar } from '../../components/avatar.tsx';
import { chunk, lazyPart, useChunk, type Chunk } from '../../components/lazy-part.ts';

/**
 * The shell's two menus carry Radix's menu, popover and positioning code (about 18 KB gzip), which
 * no first screen needs: each shows its plain trigger until it is used. Hover or focus starts the
 * download, a click swaps in the real menu already open (Radix then moves focus into it), and the
 * idle shell preloads both.
 */
const loadUserMenu = chunk(() => import('./user-menu.tsx'));
const loadContextSwitcher = chunk(() => import('./context-switcher.tsx'));
const loadPalette = chunk(() => import('./command-palette.tsx'));
const CommandPalette = lazyPart(loadPalette, (module) => module.CommandPalette);

export function preloadMenus(): void {
  void loadUserMenu();
  void loadContextSwitcher();
  void loadPalette();
}

type TriggerProps = ComponentProps<'button'>;

export function AccountTrigger({ connection, ...props }: TriggerProps & { connection: SavedConnection }) {
  return (
    <button
      type="button"
      className="user-menu__trigger"
      aria-haspopup="menu"
      aria-label={`Account: ${connection.name}${connection.isAdmin ? ', administrator' : ''}${connection.canWrite ? '' : ', read-only'}`}
      {...props}
    >
      <Avatar url={connection.avatarUrl} name={connection.name} />
      <span>{connection.username}</span>
      {connection.isAdmin ? <span className="badge badge--admin">Admin</span> : null}
      {!connection.canWrite ? <span className="badge">Read-only</span> : null}
    </button>
  );
}

export function SwitcherTrigger(props: TriggerProps) {
  return (
    <button type="button" className="button context-switcher__trigger" aria-haspopup="dialog" {...props}>
      Switch group or project
    </button>
  );
}

/** Until clicked, the plain trigger; the click mounts the real menu, open, once its code is in. */
function useOpenOnDemand<M>(load: Chunk<M>) {
  const [wanted, setWanted] = useState(false);
  const menu = useChunk(load, wanted);
  const intent = { onPointerEnter: () => void load(), onFocus: () => void load(), onClick: () => setWanted(true) };
  return { menu: wanted ? menu : undefined, intent };
}

export function UserMenuOnDemand() {
  const active = useActiveSession();
  const { menu, intent } = useOpenOnDemand(loadUserMenu);
  if (!active) return null;
  return menu ? <menu.UserMenu defaultOpen /> : <AccountTrigger connection={active.connection} {...intent} />;
}

export function ContextSwitcherOnDemand() {
  const { menu, intent } = useOpenOnDemand(loadContextSwitcher);
  return menu ? <menu.ContextSwitcher defaultOpen /> : <SwitcherTrigger {...intent} />;
}

/** Ctrl+K, or Cmd+K on a Mac: the platform's own shortcut for "Search or go to". */
const isPaletteShortcut = (event: KeyboardEvent) => (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';

/** The palette's trigger, and its shortcut anywhere in the console; the palette itself loads when first asked for. */
export function CommandPaletteOnDemand() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      // the browser's own Ctrl+K goes to its address bar
      event.preventDefault();
      setWanted(true);
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button
        type="button"
        className="button palette__trigger"
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
        onPointerEnter={() => void loadPalette()}
        onFocus={() => void loadPalette()}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">
          <circle cx="7" cy="7" r="5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M11 11l4 4" stroke="currentColor" strokeWidth="2" />
        </svg>
        <span className="palette__label">Search or go to…</span>
        <kbd aria-hidden="true">Ctrl K</kbd>
      </button>
      {wanted ? <CommandPalette open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
