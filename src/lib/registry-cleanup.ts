import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * Which tags of a container repository a cleanup deletes: the bulk tag delete of the registry API
 * and the project's cleanup policy. The sandbox deletes with it and the console previews with it,
 * so a preview is exactly what the delete does. The platform's order: `latest` is never deleted,
 * protected tags are left out, the delete expression selects and the keep expression spares, the
 * newest `keep_n` of the selection stay, and of the rest only tags older than `older_than` go.
 */

export interface CleanupRules {
  /** `name_regex_delete` (or the deprecated `name_regex`): RE2, anchored at both ends as the platform anchors it. */
  nameRegexDelete?: string | null;
  /** `name_regex_keep`: RE2, anchored; wins over the delete expression. */
  nameRegexKeep?: string | null;
  /** `keep_n`: how many of the newest selected tags stay. */
  keepN?: number | string | null;
  /** `older_than`: "1h", "7d", "2 weeks", "1month"; only tags created before now minus this are deleted. */
  olderThan?: string | null;
}

export interface CleanupTag {
  name: string;
  /** When the tag's manifest was created (ISO 8601), or null when the registry does not know. */
  createdAt: string | null;
  /** A tag protection rule stops the caller from deleting it. */
  protected?: boolean;
}

export type CleanupReason =
  | 'latest'
  | 'protected'
  | 'not-matched'
  | 'kept-by-regex'
  | 'newest-n'
  | 'younger'
  | 'deleted';

export interface CleanupDecision {
  name: string;
  deleted: boolean;
  reason: CleanupReason;
}

export type CleanupField = 'nameRegexDelete' | 'nameRegexKeep' | 'keepN' | 'olderThan';

export interface CompiledRules {
  deleteSource: string;
  keepSource: string | null;
  keepN: number | null;
  olderThanMs: number | null;
  /** Warnings that do not stop the cleanup but surprise people, by field. */
  warnings: Partial<Record<CleanupField, string>>;
}

export type CompiledCleanup =
  | { ok: true; rules: CompiledRules }
  | { ok: false; errors: Partial<Record<CleanupField, string>>; warnings: Partial<Record<CleanupField, string>> };

const compiledPatterns = new Map<string, RE2JS | string>();

/** The platform wraps the text in `\A…\z` without a group, so `a|b` means "starts with a, or ends with b". */
function compileAnchored(source: string): RE2JS | string {
  const known = compiledPatterns.get(source);
  if (known !== undefined) return known;
  let compiled: RE2JS | string;
  try {
    compiled = RE2JS.compile(`\\A${source}\\z`);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    compiled = error.message.replace(/^error parsing regexp: /, '');
  }
  if (compiledPatterns.size > 200) compiledPatterns.clear();
  compiledPatterns.set(source, compiled);
  return compiled;
}

/** True when `|` splits the whole expression: only the first branch is anchored at the start and only the last at the end. */
export function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) return true;
  }
  return false;
}

const SECOND = 1000;
/** ChronicDuration's units, as the platform parses `older_than` (a month is 30 days, a year 365.25). */
const UNIT_MS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:s|secs?|seconds?)$/, SECOND],
  [/^(?:m|mins?|minutes?)$/, 60 * SECOND],
  [/^(?:h|hrs?|hours?)$/, 3600 * SECOND],
  [/^(?:d|dy|days?)$/, 86_400 * SECOND],
  [/^(?:w|wks?|weeks?)$/, 7 * 86_400 * SECOND],
  [/^(?:mo|mos|mons?|months?)$/, 30 * 86_400 * SECOND],
  [/^(?:y|yrs?|years?)$/, 365.25 * 86_400 * SECOND],
];

/** `older_than` in milliseconds ("1h", "7d", "2 weeks", "1month", "1 day and 12 hours"), or null when it does not parse. */
export function parseOlderThan(text: string): number | null {
  const words = text.trim().toLowerCase().replace(/,|\band\b/g, ' ');
  if (!words) return null;
  if (/^\d+(?:\.\d+)?$/.test(words)) return Number(words) * SECOND;
  const part = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/y;
  let total = 0;
  let position = 0;
  while (position < words.length) {
    part.lastIndex = position;
    const match = part.exec(words);
    if (!match) return null;
    const unit = UNIT_MS.find(([pattern]) => pattern.test(match[2]));
    if (!unit) return null;
    total += Number(match[1]) * unit[1];
    position = part.lastIndex;
  }
  return total;
}

const ALTERNATION_WARNING =
  'The | splits the whole expression: only its first part must match from the start and only its last part to the end. Wrap it in (…) to anchor every part.';

/** Checks and compiles the rules; every problem is reported on its own field, in words. */
export function compileCleanupRules(rules: CleanupRules): CompiledCleanup {
  const errors: Partial<Record<CleanupField, string>> = {};
  const warnings: Partial<Record<CleanupField, string>> = {};
  const deleteSource = rules.nameRegexDelete ?? '';
  if (deleteSource === '') errors.nameRegexDelete = 'An expression of the tags to delete is required (.* for all).';
  else {
    const compiled = compileAnchored(deleteSource);
    if (typeof compiled === 'string') errors.nameRegexDelete = `Not a valid RE2 expression: ${compiled}`;
    else if (hasTopLevelAlternation(deleteSource)) warnings.nameRegexDelete = ALTERNATION_WARNING;
  }
  const keepSource = rules.nameRegexKeep ? rules.nameRegexKeep : null;
  if (keepSource !== null) {
    const compiled = compileAnchored(keepSource);
    if (typeof compiled === 'string') errors.nameRegexKeep = `Not a valid RE2 expression: ${compiled}`;
    else if (hasTopLevelAlternation(keepSource)) warnings.nameRegexKeep = ALTERNATION_WARNING;
  }
  let keepN: number | null = null;
  if (rules.keepN !== undefined && rules.keepN !== null && rules.keepN !== '') {
    const value = typeof rules.keepN === 'number' ? rules.keepN : Number(rules.keepN.trim());
    if (!Number.isInteger(value) || value < 0) errors.keepN = 'The number of tags to keep is a whole number, 0 or more.';
    else keepN = value;
  }
  let olderThanMs: number | null = null;
  if (rules.olderThan) {
    olderThanMs = parseOlderThan(rules.olderThan);
    if (olderThanMs === null) errors.olderThan = 'Not a duration: write a number and a unit, such as 1h, 7d, 2 weeks or 1month.';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors, warnings };
  return { ok: true, rules: { deleteSource, keepSource, keepN, olderThanMs, warnings } };
}

/** Match results per tag list and expression, so a keystroke in one field reruns only that field's expression. */
const matchCache = new WeakMap<readonly CleanupTag[], Map<string, Uint8Array>>();
/** Creation times per tag list; a tag the registry has no date for counts as now when sorting, as the platform does. */
const timeCache = new WeakMap<readonly CleanupTag[], Float64Array>();

function matchesOf(tags: readonly CleanupTag[], source: string): Uint8Array {
  let byPattern = matchCache.get(tags);
  if (!byPattern) matchCache.set(tags, (byPattern = new Map()));
  let matches = byPattern.get(source);
  if (!matches) {
    const pattern = compileAnchored(source);
    if (typeof pattern === 'string') throw new Error(`planCleanup needs compiled rules: ${pattern}`);
    matches = new Uint8Array(tags.length);
    for (let index = 0; index < tags.length; index++) matches[index] = pattern.test(tags[index].name) ? 1 : 0;
    if (byPattern.size > 16) byPattern.clear();
    byPattern.set(source, matches);
  }
  return matches;
}

function timesOf(tags: readonly CleanupTag[]): Float64Array {
  let times = timeCache.get(tags);
  if (!times) {
    times = new Float64Array(tags.length);
    for (let index = 0; index < tags.length; index++) {
      const createdAt = tags[index].createdAt;
      times[index] = createdAt ? Date.parse(createdAt) : Number.NaN;
    }
    timeCache.set(tags, times);
  }
  return times;
}

/** One decision per tag, in the order of `tags`. `now` in milliseconds. */
export function planCleanup(tags: readonly CleanupTag[], rules: CompiledRules, now: number): CleanupDecision[] {
  const reasons: CleanupReason[] = new Array(tags.length);
  const deleteMatches = matchesOf(tags, rules.deleteSource);
  const keepMatches = rules.keepSource === null ? null : matchesOf(tags, rules.keepSource);
  const selected: number[] = [];
  for (let index = 0; index < tags.length; index++) {
    const tag = tags[index];
    if (tag.name === 'latest') reasons[index] = 'latest';
    else if (tag.protected) reasons[index] = 'protected';
    else if (!deleteMatches[index]) reasons[index] = 'not-matched';
    else if (keepMatches?.[index]) reasons[index] = 'kept-by-regex';
    else selected.push(index);
  }
  const times = timesOf(tags);
  if (rules.keepN !== null && rules.keepN > 0) {
    // newest first; undated tags count as now; equal times by name, so every run orders them alike
    const sortTime = (index: number) => (Number.isNaN(times[index]) ? now : times[index]);
    selected.sort((a, b) => sortTime(b) - sortTime(a) || (tags[a].name < tags[b].name ? -1 : tags[a].name > tags[b].name ? 1 : 0));
    for (const index of selected.splice(0, rules.keepN)) reasons[index] = 'newest-n';
  }
  const cutoff = rules.olderThanMs === null ? null : now - rules.olderThanMs;
  for (const index of selected) {
    reasons[index] = cutoff === null || (!Number.isNaN(times[index]) && times[index] < cutoff) ? 'deleted' : 'younger';
  }
  return tags.map((tag, index) => ({ name: tag.name, deleted: reasons[index] === 'deleted', reason: reasons[index] }));
}

/** What each reason means, in the words the preview and the sandbox's answers use. */
export const CLEANUP_REASON_TEXT: Record<CleanupReason, string> = {
  latest: 'Kept: the tag named latest is never deleted',
  protected: 'Kept: a protection rule covers it',
  'not-matched': 'Kept: the delete expression does not match it',
  'kept-by-regex': 'Kept: the keep expression matches it',
  'newest-n': 'Kept: among the newest tags to keep',
  younger: 'Kept: younger than the age limit',
  deleted: 'Deleted: matched the delete expression',
};
