// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { handFocusToNewScreen, type ShownMatch } from './screen-focus.ts';

const home: ShownMatch[] = [{ routeId: '__root__', pathname: '/' }, { routeId: '/', pathname: '/' }];
const members = (group: number): ShownMatch[] => [
  { routeId: '__root__', pathname: '/' },
  { routeId: '/groups/$groupId', pathname: `/groups/${group}` },
  { routeId: '/groups/$groupId/members', pathname: `/groups/${group}/members` },
];
const mergeRequest = (tab: 'changes' | 'commits'): ShownMatch[] => [
  { routeId: '__root__', pathname: '/' },
  { routeId: '/projects/$projectId/merge-requests/$iid', pathname: '/projects/1/merge-requests/2' },
  { routeId: `/projects/$projectId/merge-requests/$iid/${tab}`, pathname: `/projects/1/merge-requests/2/${tab}` },
];

describe('handFocusToNewScreen', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    document.body.replaceChildren();
  });

  /** The shell's main box with a merge request's tab box in it, and a router whose matches the test sets. */
  const page = (first: ShownMatch[]) => {
    document.body.innerHTML = `<nav><a href="/a" id="side">Side</a></nav>
      <main tabindex="-1" data-outlet-of="__root__"><a href="/b" id="inside">Inside</a><a href="/tab" id="tab">Tab</a>
        <div tabindex="-1" data-outlet-of="/projects/$projectId/merge-requests/$iid"><a href="/c" id="in-tab">In the tab</a></div>
      </main>`;
    const state = { matches: first, listener: () => {} };
    stop = handFocusToNewScreen({
      currentMatches: () => state.matches,
      beforeScreenRender: (listener) => {
        state.listener = listener;
        return () => (state.listener = () => {});
      },
      outletOf: (routeId) => document.querySelector(`[data-outlet-of="${routeId}"]`),
    });
    const navigate = (matches: ShownMatch[]) => {
      state.matches = matches;
      state.listener();
    };
    const byId = (id: string) => document.getElementById(id)!;
    return { navigate, byId, main: document.querySelector('main')!, tabBox: document.querySelector<HTMLElement>('main div')! };
  };

  it('moves the focus from a control of the screen to the screen when another screen replaces it', () => {
    const { navigate, byId, main } = page(home);
    byId('inside').focus();
    navigate(members(7));
    expect(document.activeElement).toBe(main);
  });

  it('does so for the same screen of another group: another page, where the pressed link may stay', () => {
    const { navigate, byId, main } = page(members(7));
    byId('inside').focus();
    navigate(members(8));
    expect(document.activeElement).toBe(main);
  });

  it('leaves the focus on a control of a screen that stays (another page of its list, a filter)', () => {
    const { navigate, byId } = page(members(7));
    byId('inside').focus();
    navigate(members(7));
    expect(document.activeElement).toBe(byId('inside'));
  });

  it('leaves the focus outside the screen (the sidebar) where it is', () => {
    const { navigate, byId } = page(home);
    byId('side').focus();
    navigate(members(7));
    expect(document.activeElement).toBe(byId('side'));
  });

  it('keeps a tab’s own link focused, and moves the focus from a link inside the replaced tab to the tab’s box', () => {
    const { navigate, byId, tabBox } = page(mergeRequest('changes'));
    byId('tab').focus();
    navigate(mergeRequest('commits'));
    expect(document.activeElement).toBe(byId('tab'));
    byId('in-tab').focus();
    navigate(mergeRequest('changes'));
    expect(document.activeElement).toBe(tabBox);
  });

  it('does nothing on the first screen, where nothing was shown before', () => {
    const { navigate, byId } = page([]);
    byId('inside').focus();
    navigate(home);
    expect(document.activeElement).toBe(byId('inside'));
  });
});
