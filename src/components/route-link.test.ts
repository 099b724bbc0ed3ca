import { describe, expect, it } from 'vitest';
import { routeHref } from './route-link.tsx';

describe('routeHref', () => {
  it('puts each param in as one encoded segment, as the router writes it', () => {
    expect(routeHref('/users/$userId', { userId: 7 })).toBe('/users/7');
    expect(routeHref('/projects/$projectId/repository/branches/$branch', { projectId: 3, branch: 'feature/a b' })).toBe('/projects/3/repository/branches/feature%2Fa%20b');
  });

  it('keeps the slashes of a splat and encodes its segments', () => {
    expect(routeHref('/projects/$projectId/tree/$', { projectId: 3, _splat: 'src/a b/c#d.ts' })).toBe('/projects/3/tree/src/a%20b/c%23d.ts');
    expect(routeHref('/projects/$projectId/tree/$', { projectId: 3, _splat: '' })).toBe('/projects/3/tree');
  });

  it('drops the trailing slash of an index route, but not the root', () => {
    expect(routeHref('/users/')).toBe('/users');
    expect(routeHref('/')).toBe('/');
  });
});
