import zlib from 'node:zlib';
import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';

const PALETTE: ReadonlyArray<readonly [number, number, number]> = [
  [0x4f, 0x46, 0xe5], [0x08, 0x91, 0xb2], [0x05, 0x96, 0x69], [0xd9, 0x77, 0x06],
  [0xdc, 0x26, 0x26], [0x7c, 0x3a, 0xed], [0xdb, 0x27, 0x77], [0x25, 0x63, 0xeb],
];
const BACKGROUND = [0xf0, 0xf0, 0xf0] as const;
const CELLS = 5;
const CELL_PX = 16;
const SIZE = CELLS * CELL_PX;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * An identicon, the picture the platform shows for a user without an uploaded avatar (Gravatar's
 * default): a mirrored 5x5 pattern from the name, on a colour from the id, as a PNG. A raster
 * picture, as on the platform: an SVG avatar is a whole document that the browser parses, lays out
 * and paints on the page's main thread, one per row of a list.
 */
export function avatarPng(id: number, name: string): Buffer {
  const colour = PALETTE[id % PALETTE.length];
  let hash = 2166136261;
  for (const char of `${id}:${name}`) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619) >>> 0;
  const on = (column: number, row: number) => (hash >>> (row * 3 + Math.min(column, CELLS - 1 - column))) & 1;
  const rowBytes = 1 + SIZE * 3;
  const pixels = Buffer.alloc(rowBytes * SIZE);
  for (let y = 0; y < SIZE; y++) {
    // each scanline starts with its filter type, 0 (none)
    for (let x = 0; x < SIZE; x++) pixels.set(on(Math.floor(x / CELL_PX), Math.floor(y / CELL_PX)) ? colour : BACKGROUND, y * rowBytes + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  // 8-bit RGB, deflate, no interlace
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** GET /-/sandbox/avatars/user/:id.png, public like the platform's uploads of avatars. */
export function registerAvatars(app: Hono<AppEnv>): void {
  app.get('/-/sandbox/avatars/user/:file{[0-9]+\\.png}', (c) => {
    const id = Number(c.req.param('file').replace('.png', ''));
    const user = c.get('sandbox').db.prepare('SELECT name FROM users WHERE id = ?').get(id) as { name: string } | undefined;
    if (!user) return c.json({ message: '404 Not Found' }, 404);
    c.header('Cache-Control', 'public, max-age=86400');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(new Uint8Array(avatarPng(id, user.name)), 200, { 'Content-Type': 'image/png' });
  });
}
