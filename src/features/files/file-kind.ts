import { formatCountOf } from '../../lib/numbers.ts';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp', ico: 'image/x-icon', avif: 'image/avif',
};

/** The image type of a file name, for showing its bytes as a picture; null when it is no (raster) image. */
export function imageTypeFor(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? null : IMAGE_TYPES[fileName.slice(dot + 1).toLowerCase()] ?? null;
}

/** `1536` -> `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return formatCountOf(bytes, 'byte', 'bytes');
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
