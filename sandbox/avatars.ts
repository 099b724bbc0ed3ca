import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';

const PALETTE = ['#4f46e5', '#0891b2', '#059669', '#d97706', '#dc2626', '#7c3aed', '#db2777', '#2563eb'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Initials on a colour picked from the id: avatars that need no outside host. */
export function avatarSvg(id: number, name: string): string {
  const initials = name.split(/\s+/).filter(Boolean).slice(0, 2).map((word) => [...word][0]?.toUpperCase() ?? '').join('') || '?';
  const colour = PALETTE[id % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80"><rect width="80" height="80" fill="${colour}"/><text x="40" y="40" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="32" fill="#fff">${escapeXml(initials)}</text></svg>`;
}

/** GET /-/sandbox/avatars/user/:id.svg, public like the platform's uploads of avatars. */
export function registerAvatars(app: Hono<AppEnv>): void {
  app.get('/-/sandbox/avatars/user/:file{[0-9]+\\.svg}', (c) => {
    const id = Number(c.req.param('file').replace('.svg', ''));
    const user = c.get('sandbox').db.prepare('SELECT name FROM users WHERE id = ?').get(id) as { name: string } | undefined;
    if (!user) return c.json({ message: '404 Not Found' }, 404);
    c.header('Cache-Control', 'public, max-age=86400');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(avatarSvg(id, user.name), 200, { 'Content-Type': 'image/svg+xml' });
  });
}
