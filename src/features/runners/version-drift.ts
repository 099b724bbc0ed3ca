import { formatCountOf } from '../../lib/numbers.ts';

/** `17.8.1`, `v16.11.0-rc1`, `17.8.0-ee` -> [17, 8]; null when there is no major.minor to read. */
export function majorMinor(version: string | null | undefined): [number, number] | null {
  const match = /^v?(\d+)\.(\d+)/.exec(version?.trim() ?? '');
  return match ? [Number(match[1]), Number(match[2])] : null;
}

const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/** The newest major.minor among versions (the instance's and those on the page); null when none reads. */
export function newestMajorMinor(versions: ReadonlyArray<string | null | undefined>): [number, number] | null {
  let newest: [number, number] | null = null;
  for (const version of versions) {
    const parsed = majorMinor(version);
    if (parsed && (!newest || compare(parsed, newest) > 0)) newest = parsed;
  }
  return newest;
}

export type Drift = { kind: 'unknown' } | { kind: 'current' } | { kind: 'minor'; behind: number } | { kind: 'major'; behind: number };

/**
 * How far a runner's version is behind the reference: a runner is upgraded by major.minor (patches
 * are not drift), an older major is worse than any number of minors.
 */
export function versionDrift(version: string | null | undefined, reference: [number, number] | null): Drift {
  const own = majorMinor(version);
  if (!own || !reference) return { kind: 'unknown' };
  if (own[0] < reference[0]) return { kind: 'major', behind: reference[0] - own[0] };
  if (own[0] === reference[0] && own[1] < reference[1]) return { kind: 'minor', behind: reference[1] - own[1] };
  return { kind: 'current' };
}

/** Words for a badge: "2 minor versions behind 17.8". */
export function driftLabel(drift: Drift, reference: [number, number] | null): string | null {
  if (!reference || drift.kind === 'unknown' || drift.kind === 'current') return null;
  const unit = drift.kind === 'major' ? 'major' : 'minor';
  return `${formatCountOf(drift.behind, `${unit} version`, `${unit} versions`)} behind ${reference[0]}.${reference[1]}`;
}
