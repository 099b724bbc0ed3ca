import { HOOK_EVENTS, type SystemHook } from '../../api/system-hooks.ts';

/** A hook's name, or its URL when it has none (names are optional on the platform). */
export function hookTitle(hook: Pick<SystemHook, 'name' | 'url'>): string {
  return hook.name?.trim() || hook.url;
}

/** "Push, Merge request" — the events the hook subscribed to. */
export function hookEventsText(hook: SystemHook): string {
  const events = HOOK_EVENTS.filter((event) => hook[event.field]).map((event) => event.label);
  return events.length ? events.join(', ') : 'None';
}
