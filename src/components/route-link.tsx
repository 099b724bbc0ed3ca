import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useRouter } from '@tanstack/react-router';
import type { FileRoutesByFullPath } from '../routeTree.gen.ts';

export type RoutePath = keyof FileRoutesByFullPath;

type ParamNames<P extends string> = P extends `${string}$${infer Name}/${infer Rest}`
  ? (Name extends '' ? '_splat' : Name) | ParamNames<Rest>
  : P extends `${string}$${infer Name}`
    ? Name extends '' ? '_splat' : Name
    : never;

export type RouteParams<P extends RoutePath> = [ParamNames<P>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<P>, string | number> };

/**
 * A route's address from its path and params, as the router writes it: a param is one encoded
 * segment, the splat (`$`) keeps its slashes. Cheap enough for every row of a list.
 */
export function routeHref(to: string, params?: Record<string, string | number>): string {
  const path = to.replace(/\$(\w*)/g, (_, name: string) => {
    const value = String(params?.[name || '_splat'] ?? '');
    return name ? encodeURIComponent(value) : value.split('/').map(encodeURIComponent).join('/');
  });
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

let intent: ReturnType<typeof setTimeout> | undefined;

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;

/**
 * A link to a route as a plain anchor: no subscription to the router's state, so a list of a hundred
 * rows does not re-render each link on every navigation as the router's `Link` does. It navigates
 * in the page, preloads on hover as `Link` does (a press preloads too: lib/press-preload), and a
 * modified click (new tab, new window) is left to the browser.
 */
export function RouteLink<P extends RoutePath>({ to, params, search, hash, onClick, onMouseEnter, onMouseLeave, onPointerDown, ...anchor }: { to: P; search?: Record<string, unknown>; hash?: string } & RouteParams<P> & AnchorProps) {
  const router = useRouter();
  const href = routeHref(to, params as Record<string, string | number> | undefined) + (search ? router.options.stringifySearch(search) : '') + (hash ? `#${encodeURI(hash)}` : '');
  return (
    <a
      {...anchor}
      href={href}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || anchor.target) return;
        event.preventDefault();
        clearTimeout(intent);
        void router.navigate({ href });
      }}
      onMouseEnter={(event) => {
        onMouseEnter?.(event);
        clearTimeout(intent);
        // the router's own delay for a hover preload
        intent = setTimeout(() => void router.preloadRoute({ href } as Parameters<typeof router.preloadRoute>[0]).catch(() => undefined), 50);
      }}
      onMouseLeave={(event) => {
        onMouseLeave?.(event);
        clearTimeout(intent);
      }}
      onPointerDown={(event) => {
        onPointerDown?.(event);
        // the press preloads at once: a hover's preload still to come would only hold up the frame that shows the screen
        clearTimeout(intent);
      }}
    />
  );
}
