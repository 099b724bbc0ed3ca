import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Connection } from './http.ts';
import { safeHttpUrl } from './schema.ts';
import type { SessionStore } from './session.ts';

export interface AppServices {
  session: SessionStore;
  /** The active session's connection; reads the store on every request. */
  connection: Connection;
}

export const ServicesContext = createContext<AppServices | null>(null);

function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('ServicesContext is missing: render inside <App>');
  return services;
}

export function useConnection(): Connection {
  return useServices().connection;
}

export function useSessionStore(): SessionStore {
  return useServices().session;
}

/** The active session, re-rendering when it changes. */
export function useActiveSession() {
  const session = useSessionStore();
  return useSyncExternalStore(session.subscribe, session.getActive);
}

/**
 * A link to the instance's own web page at `url`: only an http(s) URL, and none when the instance
 * serves only the API (the sandbox), where the page would say "There is no such page".
 */
export function useInstancePage(url: string | null | undefined): string | undefined {
  return useActiveSession()?.connection.apiOnly ? undefined : safeHttpUrl(url);
}

export function useSavedConnections() {
  const session = useSessionStore();
  return useSyncExternalStore(session.subscribe, session.getSaved);
}
