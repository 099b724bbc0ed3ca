import { describe, expect, it } from 'vitest';
import { routePattern, routePreloads, withPreloads, type Manifest } from './route-preloads.ts';

const manifest: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js'], dynamicImports: ['src/features/shell/app-shell.tsx'], css: ['assets/index-1.css'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_table-1.js': { file: 'assets/table-1.js', imports: ['_react-1.js', '_time-1.js'], css: ['assets/table-1.css'] },
  '_time-1.js': { file: 'assets/time-1.js' },
  'src/features/shell/app-shell.tsx': { file: 'assets/app-shell-1.js', src: 'src/features/shell/app-shell.tsx', imports: ['index.html', '_time-1.js'] },
  'src/routes/groups/$groupId/members.tsx?tsr-split=component': { file: 'assets/members-1.js', src: 'src/routes/groups/$groupId/members.tsx?tsr-split=component', imports: ['index.html', '_table-1.js'] },
  'src/routes/groups/$groupId/members.tsx?tsr-split=errorComponent': { file: 'assets/members-error-1.js', src: 'src/routes/groups/$groupId/members.tsx?tsr-split=errorComponent' },
  'src/routes/admin/hooks/new.tsx?tsr-split=component---loader': { file: 'assets/new-1.js', src: 'src/routes/admin/hooks/new.tsx?tsr-split=component---loader' },
  'src/routes/admin/hooks/$hookId.tsx?tsr-split=component---loader': { file: 'assets/hook-1.js', src: 'src/routes/admin/hooks/$hookId.tsx?tsr-split=component---loader' },
  'src/routes/connect.tsx?tsr-split=component---loader': { file: 'assets/connect-1.js', src: 'src/routes/connect.tsx?tsr-split=component---loader', imports: ['_react-1.js'] },
};

describe('route patterns from file names', () => {
  it.each([
    ['src/routes/index.tsx', '/', '/x'],
    ['src/routes/groups/index.tsx', '/groups', '/groups/1'],
    ['src/routes/groups/$groupId/members.tsx', '/groups/12/members', '/groups/12/members/3'],
    ['src/routes/admin/runners_.$runnerId.tsx', '/admin/runners/4', '/admin/runners'],
    ['src/routes/admin/service-accounts_.$userId.tokens.tsx', '/admin/service-accounts/9/tokens', '/admin/service-accounts/9'],
    ['src/routes/projects/$projectId/tree.$.tsx', '/projects/3/tree/src/main.rs', '/projects/3/blob/a'],
  ])('%s matches %s and not %s', (source, matching, other) => {
    const pattern = routePattern(source)!;
    expect(pattern.matcher.test(matching)).toBe(true);
    expect(pattern.matcher.test(other)).toBe(false);
  });

  it('has none for the root route or files outside the routes', () => {
    expect(routePattern('src/routes/__root.tsx')).toBeUndefined();
    expect(routePattern('src/features/shell/app-shell.tsx')).toBeUndefined();
  });
});

describe('the chunks a deep link preloads', () => {
  const preloads = routePreloads(manifest);

  it('lists the route\'s own chunks, their styles and imports, then the shell, never what the page has already', () => {
    expect(preloads.forPath('/groups/12/members')).toEqual(['assets/members-1.js', 'assets/table-1.js', 'assets/table-1.css', 'assets/time-1.js', 'assets/app-shell-1.js']);
  });

  it('finds the shell in the chunk the build gathered it into with its imports', () => {
    const { 'src/features/shell/app-shell.tsx': shell, ...rest } = manifest;
    const gathered = routePreloads({ ...rest, '_shell-Ab_1.js': { file: shell.file, imports: shell.imports } });
    expect(gathered.forPath('/groups/12/members')).toEqual(['assets/members-1.js', 'assets/table-1.js', 'assets/table-1.css', 'assets/time-1.js', 'assets/app-shell-1.js']);
  });

  it('prefers a static segment over a parameter, as the router does', () => {
    expect(preloads.forPath('/admin/hooks/new')[0]).toBe('assets/new-1.js');
    expect(preloads.forPath('/admin/hooks/7')[0]).toBe('assets/hook-1.js');
  });

  it('leaves the shell out of the connect screen, and preloads only the shell for an unknown path', () => {
    expect(preloads.forPath('/connect')).toEqual(['assets/connect-1.js']);
    expect(preloads.forPath('/nowhere')).toEqual(['assets/app-shell-1.js', 'assets/time-1.js']);
  });

  it('writes them as preload links in the head: modulepreload for scripts, a CORS preload for styles', () => {
    const html = withPreloads('<html><head><title>x</title></head><body></body></html>', ['assets/members-1.js', 'assets/table-1.css']);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/members-1.js">\n    <link rel="preload" as="style" crossorigin href="/assets/table-1.css">\n  </head>');
  });
});
