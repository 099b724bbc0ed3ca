/**
 * The CI file: parse (YAML 1.2 with anchors, merge keys and `!reference`), `include: local`,
 * `extends`, `default`, validation with the platform's messages, then `workflow:rules` and
 * each job's `rules` / `only` / `except` against the pipeline's variables. Pure: the
 * repository is read through `CiContext.readFile`, nothing else is touched.
 */
import { parseAllDocuments, YAMLSeq, type Document } from 'yaml';
import { compilePattern, matchesRule } from './expression.ts';
import { parseDuration } from './duration.ts';
import { isGlob, matchPaths } from './glob.ts';
import { expandVariables, inheritedVariables } from './variables.ts';

export { predefinedVariables, jobVariables, jobEnvironment, expandVariables, expandText, slugify } from './variables.ts';
export type { PredefinedVariablesInput, JobVariablesInput } from './variables.ts';

export interface CiContext {
  /** Predefined CI_* + project + pipeline (trigger/API) variables: what `rules:if` and `$VAR` expansion see. */
  variables: Record<string, string>;
  /** A file of the repository at the pipeline's sha (for `include: local`); null when absent. */
  readFile(path: string): string | null;
  /** `inputs` given when the pipeline was created (for a file with a `spec:inputs` header). */
  inputs?: Record<string, unknown>;
  /**
   * The paths the push changed, for `rules:changes`; null or absent when there is nothing to
   * compare (web, API, schedules, a new branch): `changes` then holds, as on the platform.
   */
  changedFiles?: string[] | null;
  /** Every path of the repository at the sha, for `rules:exists` globs (absent: a glob counts as present). */
  listFiles?(): string[];
}
export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';
export interface JobPlan {
  name: string;
  stage: string;
  stageIndex: number;
  /** null: waits for every job of the earlier stages (stage order); []: starts at once (needs: []). */
  needs: string[] | null;
  when: JobWhen;
  startInSeconds: number | null; // delayed + start_in ("30 seconds", "1 min", "1 hour"...)
  allowFailure: boolean;
  allowFailureExitCodes: number[]; // allow_failure: true | {exit_codes: [..]}
  beforeScript: string[];
  script: string[];
  afterScript: string[]; // default: before/after_script inherited
  variables: Record<string, string>; // the job's own (global ones are in PipelinePlan.variables)
  tags: string[];
  coverageRegex: string | null; // coverage: '/Total: (\d+\.\d+)%/' -> source without slashes
  junitPaths: string[]; // artifacts:reports:junit (string or list; globs allowed)
  retry: { max: number; when: string[]; exitCodes?: number[] }; // retry: 2 | {max, when, exit_codes}
  timeoutSeconds: number | null; // timeout: "1h 30m", "10 minutes"
  /** Which global variables the job sees (`inherit:variables`): all, none, or the listed ones. */
  inheritVariables: boolean | string[];
  /** `artifacts:paths` (kept by the worker if it keeps artifacts). */
  artifactPaths: string[];
  environment: string | null;
  interruptible: boolean;
  resourceGroup: string | null;
  /** `parallel: N` expands a job into "name 1/N" ... "name N/N"; a matrix into "name: [a, b]". */
  parallel: { index: number; total: number; baseName: string; matrix: Record<string, string> | null } | null;
  /** `trigger:` jobs start a child pipeline from local files instead of running a script. */
  trigger: { include: string[]; strategy: 'depend' | null; forward: { yamlVariables: boolean; pipelineVariables: boolean } } | null;
}
export interface PipelinePlan {
  stages: string[];
  variables: Record<string, string>;
  jobs: JobPlan[];
  /** `workflow:name`, variables expanded; null when absent. */
  name: string | null;
  /**
   * Why no job is in the plan when `jobs` is empty: the platform creates no pipeline then and
   * answers with this message (`workflow:rules` or every job's `rules` excluded everything).
   */
  notRunReason: string | null;
}
export type PlanResult = { ok: true; plan: PipelinePlan } | { ok: false; errors: string[] };

/** The platform's answer when rules leave no job to run. */
export const RULES_PREVENTED_MESSAGE =
  'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.';
export const WORKFLOW_FILTERED_MESSAGE = 'Pipeline filtered out by workflow rules.';

const DEFAULT_STAGES = ['build', 'test', 'deploy'];
const WHEN_VALUES: JobWhen[] = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
const RETRY_WHEN = [
  'always', 'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure',
  'runner_system_failure', 'runner_unsupported', 'stale_schedule', 'job_execution_timeout',
  'archived_failure', 'unmet_prerequisites', 'scheduler_failure', 'data_integrity_failure',
];
const GLOBAL_KEYS = new Set([
  'default', 'include', 'stages', 'variables', 'workflow', 'image', 'services', 'cache',
  'before_script', 'after_script', 'types', 'spec',
]);
/** Every job keyword of the platform: unsupported ones are accepted (and have no effect here). */
const JOB_KEYS = new Set([
  'after_script', 'allow_failure', 'artifacts', 'before_script', 'cache', 'coverage', 'dast_configuration',
  'dependencies', 'environment', 'except', 'extends', 'hooks', 'id_tokens', 'identity', 'image', 'inherit',
  'interruptible', 'manual_confirmation', 'needs', 'only', 'pages', 'parallel', 'publish', 'release',
  'resource_group', 'retry', 'rules', 'run', 'script', 'secrets', 'services', 'stage', 'start_in', 'tags',
  'timeout', 'trigger', 'variables', 'when', 'type',
]);
const DEFAULT_KEYS = new Set([
  'after_script', 'artifacts', 'before_script', 'cache', 'hooks', 'id_tokens', 'image', 'interruptible',
  'retry', 'services', 'tags', 'timeout',
]);
const RULE_KEYS = new Set(['if', 'changes', 'exists', 'when', 'allow_failure', 'variables', 'start_in', 'needs', 'interruptible']);
const MAX_INCLUDES = 150;
const MAX_EXTENDS_DEPTH = 11;
const ONE_WEEK = 7 * 24 * 3600;

type Raw = Record<string, unknown>;

class Reference {
  constructor(readonly path: string[]) {}
}

/** `!reference [.job, script]`: resolved after includes are merged, as the platform does. */
const referenceTag = {
  tag: '!reference',
  collection: 'seq' as const,
  identify: (value: unknown) => value instanceof Reference,
  resolve(seq: YAMLSeq) {
    const node = new YAMLSeq();
    node.items = seq.items;
    node.toJSON = (() => new Reference(seq.items.map((item) => String((item as { value?: unknown }).value ?? item)))) as unknown as YAMLSeq['toJSON'];
    return node;
  },
};

class ConfigError extends Error {}

function isHash(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Reference);
}

function deepMerge(base: Raw, over: Raw): Raw {
  const out: Raw = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] = isHash(prev) && isHash(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

function yamlErrorText(doc: Document.Parsed): string {
  const error = doc.errors[0];
  const firstLine = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const pos = error.linePos?.[0];
  return pos ? `(<unknown>): ${firstLine} at line ${pos.line} column ${pos.col}` : `(<unknown>): ${firstLine}`;
}

type ParsedFile = { ok: true; config: unknown; spec: Raw | null } | { ok: false; error: string };

// Parsing is most of a plan's cost, and a project's pipelines mostly read the same file again:
// the last files parsed are kept (frozen: the planner copies before it changes anything).
const PARSE_CACHE_SIZE = 64;
const PARSE_CACHE_MAX_TEXT = 256 * 1024;
const parseCache = new Map<string, ParsedFile>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Parses one file (or answers it from the cache of recent files). */
function parseFile(text: string): ParsedFile {
  if (text.length > PARSE_CACHE_MAX_TEXT) return parseFileUncached(text);
  const cached = parseCache.get(text);
  if (cached) {
    parseCache.delete(text);
    parseCache.set(text, cached);
    return cached;
  }
  const parsed = deepFreeze(parseFileUncached(text));
  if (parseCache.size >= PARSE_CACHE_SIZE) parseCache.delete(parseCache.keys().next().value!);
  parseCache.set(text, parsed);
  return parsed;
}

/** Parses one file: the config document, and its `spec:inputs` header when it has one. */
function parseFileUncached(text: string): ParsedFile {
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { merge: true, customTags: [referenceTag], uniqueKeys: false }) as Document.Parsed[];
  } catch (error) {
    return { ok: false, error: `(<unknown>): ${(error as Error).message.split('\n')[0]}` };
  }
  if (!Array.isArray(docs)) docs = [docs];
  const bad = docs.find((doc) => doc.errors.length > 0);
  if (bad) return { ok: false, error: yamlErrorText(bad) };
  try {
    if (docs.length === 0) return { ok: true, config: null, spec: null };
    if (docs.length >= 2) {
      const header = docs[0].toJS({ maxAliasCount: 10_000 });
      if (isHash(header) && 'spec' in header) {
        return { ok: true, config: docs[1].toJS({ maxAliasCount: 10_000 }), spec: isHash(header.spec) ? header.spec : {} };
      }
    }
    return { ok: true, config: docs[0].toJS({ maxAliasCount: 10_000 }), spec: null };
  } catch (error) {
    return { ok: false, error: `(<unknown>): ${(error as Error).message.split('\n')[0]}` };
  }
}

/** What is wrong with an input's value against its `type`, `options` and `regex`; null when nothing. */
function inputProblem(def: Raw, value: unknown): string | null {
  const type = typeof def.type === 'string' ? def.type : 'string';
  const typeOk =
    type === 'number' ? typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      : type === 'boolean' ? typeof value === 'boolean' || value === 'true' || value === 'false'
        : type === 'array' ? Array.isArray(value)
          : typeof value === 'string';
  if (!typeOk) return `provided value is not a ${type}`;
  if (Array.isArray(def.options) && !def.options.map(String).includes(String(value))) {
    return `\`${String(value)}\` cannot be used because it is not in the list of allowed options`;
  }
  if (typeof def.regex === 'string' && typeof value === 'string') {
    const m = /^\/(.*)\/([ims]*)$/s.exec(def.regex);
    try {
      if (!compilePattern(m ? m[1] : def.regex, m ? m[2] : '').test(value)) return 'provided value does not match required RegEx pattern';
    } catch {
      return 'provided value does not match required RegEx pattern';
    }
  }
  return null;
}

/** `$[[ inputs.name ]]` interpolation of a file with a `spec:inputs` header. */
function interpolateInputs(config: unknown, spec: Raw | null, given: Record<string, unknown> | undefined, errors: string[]): unknown {
  const declared = spec && isHash(spec.inputs) ? spec.inputs : {};
  const values: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(declared)) {
    const def = isHash(definition) ? definition : {};
    if (given && Object.hasOwn(given, name)) values[name] = given[name];
    else if ('default' in def) values[name] = def.default;
    else errors.push(`\`${name}\` input: required value has not been provided`);
    if (!(name in values)) continue;
    const problem = inputProblem(def, values[name]);
    if (problem) errors.push(`\`${name}\` input: ${problem}`);
  }
  const unknown = Object.keys(given ?? {}).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length > 0 && spec) errors.push(`unknown input arguments: ${unknown.join(', ')}`);
  if (!spec) return config;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = /^\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]$/.exec(value);
      if (whole) return Object.hasOwn(values, whole[1]) ? values[whole[1]] : value;
      return value.replace(/\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]/g, (all, name: string) => {
        if (!Object.hasOwn(values, name)) {
          if (!Object.hasOwn(declared, name)) errors.push(`unknown interpolation key: \`${name}\``);
          return all;
        }
        return String(values[name]);
      });
    }
    if (Array.isArray(value)) return value.map(walk);
    // keys are interpolated too (a job named after an input)
    if (isHash(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.includes('$[[') ? String(walk(k)) : k, walk(v)]));
    return value;
  };
  return walk(config);
}

function includeLocations(include: unknown): Array<{ local: string; rules?: unknown; inputs?: Record<string, unknown> } | { other: string }> {
  const list = Array.isArray(include) ? include : [include];
  return list.map((entry) => {
    if (typeof entry === 'string') {
      return /^https?:\/\//.test(entry) ? { other: `Remote file \`${entry}\`` } : { local: entry };
    }
    if (isHash(entry) && typeof entry.local === 'string') {
      return { local: entry.local, rules: entry.rules, inputs: isHash(entry.inputs) ? entry.inputs : undefined };
    }
    if (isHash(entry)) {
      const kind = ['remote', 'project', 'template', 'component'].find((k) => k in entry);
      return { other: kind ? `Included ${kind} \`${String(entry[kind])}\`` : `Include \`${JSON.stringify(entry)}\`` };
    }
    return { other: `Include \`${JSON.stringify(entry)}\`` };
  });
}

/** Loads the main file and its local includes (depth-first, each file at most once), merged. */
function loadConfig(ciYaml: string, context: CiContext): { ok: true; config: Raw } | { ok: false; errors: string[] } {
  if (!ciYaml || !ciYaml.trim()) return { ok: false, errors: ['Please provide content of .gitlab-ci.yml'] };
  const main = parseFile(ciYaml);
  if (!main.ok) return { ok: false, errors: [main.error] };
  const errors: string[] = [];
  const mainConfig = interpolateInputs(main.config, main.spec, context.inputs, errors);
  if (errors.length > 0) return { ok: false, errors };
  if (!isHash(mainConfig)) return { ok: false, errors: ['Invalid configuration format'] };

  const seen = new Set<string>();
  let count = 0;
  const expand = (config: Raw, depth: number): Raw => {
    if (!('include' in config)) return config;
    if (depth > 100) throw new ConfigError('Maximum of 100 nested includes are allowed!');
    let merged: Raw = {};
    for (const location of includeLocations(config.include)) {
      if ('other' in location) {
        throw new ConfigError(`${location.other} cannot be included: this instance supports local includes only`);
      }
      if (location.rules !== undefined && !rulesMatch(location.rules, context.variables)) continue;
      const path = location.local.replace(/^\/+/, '');
      if (!/\.ya?ml$/.test(path)) throw new ConfigError(`Included file \`${location.local}\` does not have YAML extension!`);
      if (/[*?[]/.test(path)) throw new ConfigError(`Included file \`${location.local}\`: wildcard paths are not supported by this instance`);
      // a file comes in once, or once per set of inputs
      const key = location.inputs ? `${path}\n${JSON.stringify(location.inputs)}` : path;
      if (seen.has(key)) continue;
      seen.add(key);
      count += 1;
      if (count > MAX_INCLUDES) throw new ConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
      const text = context.readFile(path);
      if (text === null) throw new ConfigError(`Local file \`${location.local}\` does not exist!`);
      if (!text.trim()) throw new ConfigError(`Included file \`${location.local}\` is empty or does not exist!`);
      const parsed = parseFile(text);
      if (!parsed.ok || !isHash(parsed.config)) {
        throw new ConfigError(`Included file \`${location.local}\` does not have valid YAML syntax!`);
      }
      const inputErrors: string[] = [];
      const inner = interpolateInputs(parsed.config, parsed.spec, location.inputs, inputErrors) as Raw;
      if (inputErrors.length > 0) throw new ConfigError(`\`${location.local}\`: ${inputErrors[0]}`);
      merged = deepMerge(merged, expand(inner, depth + 1));
    }
    const { include: _ignored, ...rest } = config;
    return deepMerge(merged, rest);
  };
  try {
    return { ok: true, config: resolveReferences(expand(mainConfig, 0)) };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, errors: [error.message] };
    throw error;
  }
}

function resolveReferences(config: Raw): Raw {
  const lookup = (ref: Reference, depth: number): unknown => {
    if (depth > 10) throw new ConfigError('!reference tags nested too deep');
    let value: unknown = config;
    for (const key of ref.path) {
      if (!isHash(value) || !(key in value)) throw new ConfigError(`!reference [${ref.path.join(', ')}] could not be found`);
      value = value[key];
    }
    return walk(value, depth + 1);
  };
  const walk = (value: unknown, depth: number): unknown => {
    if (value instanceof Reference) return lookup(value, depth);
    if (Array.isArray(value)) return value.map((item) => walk(item, depth));
    if (isHash(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, depth)]));
    return value;
  };
  return walk(config, 0) as Raw;
}

// ---------------------------------------------------------------------------------------------
// Values

function scriptLines(value: unknown, where: string, key: string, errors: string[]): string[] | null {
  if (value === undefined || value === null) return null;
  const out: string[] = [];
  const flatten = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') {
      out.push(item);
      return true;
    }
    if (typeof item === 'number' || typeof item === 'boolean') {
      out.push(String(item));
      return true;
    }
    if (Array.isArray(item) && depth < 10) return item.every((inner) => flatten(inner, depth + 1));
    return false;
  };
  if (!flatten(value, 0)) {
    errors.push(`${where} ${key} config should be a string or a nested array of strings up to 10 levels deep`);
    return null;
  }
  return out;
}

function variableValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  return null;
}

function readVariables(value: unknown, where: string, errors: string[], allowHash: boolean): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isHash(value)) {
    errors.push(`${where}variables config should be a hash of key value pairs${allowHash ? ', value can be a hash' : ''}`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(value)) {
    const plain = variableValue(raw);
    if (plain !== null) {
      out[key] = plain;
      continue;
    }
    if (isHash(raw)) {
      const inner = variableValue(raw.value ?? '');
      const unknown = Object.keys(raw).filter((k) => !['value', 'description', 'options', 'expand'].includes(k));
      if (inner !== null && unknown.length === 0) {
        out[key] = inner;
        continue;
      }
      if (unknown.length > 0) {
        errors.push(`${where}variables:${key} config uses invalid data keys: ${unknown.join(', ')}`);
        continue;
      }
    }
    errors.push(`${where}variables config should be a hash of key value pairs${allowHash ? ', value can be a hash' : ''}`);
    return out;
  }
  return out;
}

function stringList(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return null;
}

function rulesMatch(rules: unknown, variables: Record<string, string>): boolean {
  if (!Array.isArray(rules)) return true;
  for (const rule of rules) {
    if (!isHash(rule)) continue;
    if (typeof rule.if === 'string') {
      const result = matchesRule(rule.if, variables);
      if (!result.ok || !result.value) continue;
    }
    return rule.when !== 'never';
  }
  return false;
}

type RuleOutcome = { when?: string; allowFailure?: unknown; variables?: Record<string, string>; startIn?: unknown; needs?: unknown };

/** Validates a `rules` list (errors in the platform's words); null when it is not a list of hashes. */
function validateRules(rules: unknown, where: string, errors: string[]): Raw[] | null {
  if (!Array.isArray(rules) || !rules.every(isHash)) {
    errors.push(`${where}:rules config should be an array of hashes`);
    return null;
  }
  for (const rule of rules as Raw[]) {
    const unknown = Object.keys(rule).filter((k) => !RULE_KEYS.has(k));
    if (unknown.length > 0) errors.push(`${where}:rules:rule config contains unknown keys: ${unknown.join(', ')}`);
    if ('if' in rule) {
      if (typeof rule.if !== 'string') errors.push(`${where}:rules:rule if should be a string`);
      else {
        const check = matchesRule(rule.if, {});
        if (!check.ok) errors.push(`${where}:rules:rule if ${check.error}`);
      }
    }
    if ('when' in rule && !(typeof rule.when === 'string' && [...WHEN_VALUES, 'never'].includes(rule.when))) {
      errors.push(`${where}:rules:rule when unknown value: ${String(rule.when)}`);
    }
    if ('allow_failure' in rule && typeof rule.allow_failure !== 'boolean') {
      errors.push(`${where}:rules:rule allow_failure should be a boolean value`);
    }
  }
  return rules as Raw[];
}

/** The first rule that matches, or null when none does (or it says `when: never`). */
function applyRules(rules: Raw[], variables: Record<string, string>, context: CiContext, where: string, errors: string[]): RuleOutcome | null {
  for (const rule of rules) {
    if (typeof rule.if === 'string') {
      const result = matchesRule(rule.if, variables);
      if (!result.ok || !result.value) continue;
    }
    if (rule.exists !== undefined && !existsMatch(rule.exists, context)) continue;
    if (rule.changes !== undefined && !changesMatch(rule.changes, context)) continue;
    if (rule.when === 'never') return null;
    return {
      when: typeof rule.when === 'string' ? rule.when : undefined,
      allowFailure: rule.allow_failure,
      variables: 'variables' in rule ? readVariables(rule.variables, `${where}:rules:rule `, errors, false) : undefined,
      startIn: rule.start_in,
      needs: rule.needs,
    };
  }
  return null;
}

/** `rules:exists`: a plain path is read through the context; a glob needs `listFiles` (without it, it holds). */
function existsMatch(exists: unknown, context: CiContext): boolean {
  const paths = isHash(exists) ? stringList(exists.paths) : stringList(exists);
  if (!paths) return false;
  let listed: string[] | null = null;
  return paths.some((path) => {
    if (!isGlob(path)) return context.readFile(path.replace(/^\/+/, '')) !== null;
    if (!context.listFiles) return true;
    listed ??= context.listFiles();
    return matchPaths(path, listed).length > 0;
  });
}

/** `rules:changes`: any changed path matches one of the globs; true when there is nothing to compare. */
function changesMatch(changes: unknown, context: CiContext): boolean {
  const paths = isHash(changes) ? stringList(changes.paths) : stringList(changes);
  if (!paths) return false;
  if (context.changedFiles === null || context.changedFiles === undefined) return true;
  const changed = context.changedFiles;
  return paths.some((path) => matchPaths(path, changed).length > 0);
}

/** `only` / `except` with refs (names, /regex/, and the source keywords) and `variables` expressions. */
function onlyExceptMatch(spec: unknown, variables: Record<string, string>): boolean {
  const refsAndVars: { refs: string[] | null; vars: string[] | null } = isHash(spec)
    ? { refs: stringList(spec.refs), vars: stringList(spec.variables) }
    : { refs: stringList(spec), vars: null };
  const ref = variables.CI_COMMIT_REF_NAME ?? '';
  const source = variables.CI_PIPELINE_SOURCE ?? '';
  const isTag = Boolean(variables.CI_COMMIT_TAG);
  const sourceWord: Record<string, string> = {
    api: 'api', push: 'pushes', schedule: 'schedules', trigger: 'triggers', web: 'web',
    pipeline: 'pipelines', parent_pipeline: 'pipelines', merge_request_event: 'merge_requests', chat: 'chat', external: 'external',
  };
  const refMatch = (pattern: string): boolean => {
    if (pattern === 'branches') return !isTag && source !== 'merge_request_event';
    if (pattern === 'tags') return isTag;
    if (Object.values(sourceWord).includes(pattern)) return sourceWord[source] === pattern;
    const m = /^\/(.*)\/([ims]*)$/s.exec(pattern);
    if (m) {
      try {
        return compilePattern(m[1], m[2]).test(ref);
      } catch {
        return false;
      }
    }
    return pattern === ref.replace(/@.*$/, '');
  };
  const refsOk = refsAndVars.refs === null || refsAndVars.refs.some(refMatch);
  const varsOk = refsAndVars.vars === null || refsAndVars.vars.some((e) => {
    const r = matchesRule(e, variables);
    return r.ok && r.value;
  });
  return refsOk && varsOk;
}

const MAX_NEEDS = 50;

function needsList(value: unknown, where: string, errors: string[]): Array<{ job: string; optional: boolean }> | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    errors.push(`${where} needs config can only be an array`);
    return null;
  }
  if (value.length > MAX_NEEDS) {
    errors.push(`${where}:needs config has too many entries (maximum ${MAX_NEEDS})`);
    return null;
  }
  const out: Array<{ job: string; optional: boolean }> = [];
  for (const entry of value) {
    if (typeof entry === 'string') out.push({ job: entry, optional: false });
    else if (isHash(entry) && typeof entry.job === 'string') out.push({ job: entry.job, optional: entry.optional === true });
    else if (isHash(entry) && ('project' in entry || 'pipeline' in entry)) continue; // cross-project: nothing to wait for here
    else errors.push(`${where}:needs:need config should be a string or a hash with a job`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Planning

interface DraftJob {
  name: string;
  needs: Array<{ job: string; optional: boolean }> | null;
  rules: Raw[] | null;
  only: unknown;
  except: unknown;
  explicitAllowFailure: boolean;
}

function resolveExtends(jobs: Raw, name: string, stack: string[], errors: string[], cache: Map<string, Raw>): Raw {
  const cached = cache.get(name);
  if (cached) return cached;
  const job = jobs[name] as Raw;
  if (!('extends' in job)) {
    cache.set(name, job);
    return job;
  }
  const parents = stringList(job.extends);
  if (!parents) {
    errors.push(`jobs:${name} extends should be an array of strings or a string`);
    return job;
  }
  let merged: Raw = {};
  for (const parent of parents) {
    if (stack.includes(parent) || parent === name) throw new ConfigError(`${stack[0] ?? name}: circular dependency detected in \`extends\``);
    if (stack.length >= MAX_EXTENDS_DEPTH) throw new ConfigError(`${stack[0] ?? name}: nesting too deep in \`extends\``);
    if (!isHash(jobs[parent])) throw new ConfigError(`${name}: unknown keys in \`extends\` (${parent})`);
    merged = deepMerge(merged, resolveExtends(jobs, parent, [...stack, name], errors, cache));
  }
  const { extends: _e, ...own } = job;
  const result = deepMerge(merged, own);
  cache.set(name, result);
  return result;
}

function inheritSetting(inherit: unknown, key: 'default' | 'variables'): boolean | string[] {
  if (!isHash(inherit) || !(key in inherit)) return true;
  const value = inherit[key];
  if (typeof value === 'boolean') return value;
  return stringList(value) ?? true;
}

function parallelCopies(name: string, parallel: unknown, where: string, errors: string[]): Array<{ name: string; parallel: JobPlan['parallel'] }> {
  if (parallel === undefined || parallel === null) return [{ name, parallel: null }];
  if (typeof parallel === 'number') {
    if (!Number.isInteger(parallel) || parallel < 1 || parallel > 200) {
      errors.push(`${where} parallel should be an integer or a hash`);
      return [{ name, parallel: null }];
    }
    if (parallel === 1) return [{ name, parallel: null }];
    return Array.from({ length: parallel }, (_, i) => ({
      name: `${name} ${i + 1}/${parallel}`,
      parallel: { index: i + 1, total: parallel, baseName: name, matrix: null },
    }));
  }
  if (isHash(parallel) && Array.isArray(parallel.matrix)) {
    const combos: Array<Record<string, string>> = [];
    for (const row of parallel.matrix) {
      if (!isHash(row)) continue;
      let partial: Array<Record<string, string>> = [{}];
      for (const [key, value] of Object.entries(row)) {
        const values = Array.isArray(value) ? value.map(String) : [String(value)];
        partial = partial.flatMap((combo) => values.map((v) => ({ ...combo, [key]: v })));
      }
      combos.push(...partial);
    }
    if (combos.length === 0 || combos.length > 200) {
      errors.push(`${where}:parallel:matrix config generates too many jobs (maximum is 200)`);
      return [{ name, parallel: null }];
    }
    return combos.map((matrix, i) => ({
      name: `${name}: [${Object.values(matrix).join(', ')}]`,
      parallel: { index: i + 1, total: combos.length, baseName: name, matrix },
    }));
  }
  errors.push(`${where} parallel should be an integer or a hash`);
  return [{ name, parallel: null }];
}

interface JobTemplate {
  plan: Omit<JobPlan, 'name' | 'stageIndex' | 'needs' | 'parallel'>;
  needs: Array<{ job: string; optional: boolean }> | null;
  rules: Raw[] | null;
  explicitAllowFailure: boolean;
}

/** One job's keywords (after `extends`) read and checked; null when one is wrong (said in `errors`). */
function readJob(name: string, raw: Raw, defaults: Raw, allStages: string[], errors: string[]): JobTemplate | null {
  const where = `jobs:${name}`;
  const unknown = Object.keys(raw).filter((k) => !JOB_KEYS.has(k));
  if (unknown.length > 0) {
    errors.push(`${where} config contains unknown keys: ${unknown.join(', ')}`);
    return null;
  }
  if ('rules' in raw && ('only' in raw || 'except' in raw)) {
    errors.push(`${where} config key may not be used with \`rules\`: ${['only', 'except'].filter((k) => k in raw).join(', ')}`);
    return null;
  }
  const inheritDefault = inheritSetting(raw.inherit, 'default');
  const fromDefault = (key: string): unknown => {
    if (key in raw) return raw[key];
    if (inheritDefault === false || (Array.isArray(inheritDefault) && !inheritDefault.includes(key))) return undefined;
    return defaults[key];
  };

  const trigger = readTrigger(raw.trigger, where, errors);
  const script = scriptLines(raw.script ?? raw.run, where, 'script', errors);
  if (!trigger) {
    if (raw.script === undefined && raw.run === undefined) {
      errors.push(`${where} config should implement the script:, run:, or trigger: keyword`);
      return null;
    }
    if (script !== null && script.filter((line) => line.trim() !== '').length === 0) {
      errors.push(`${where} script can't be blank`);
      return null;
    }
  }
  const beforeScript = scriptLines(fromDefault('before_script'), where, 'before_script', errors) ?? [];
  const afterScript = scriptLines(fromDefault('after_script'), where, 'after_script', errors) ?? [];

  const stage = raw.stage ?? raw.type ?? 'test';
  if (typeof stage !== 'string') {
    errors.push(`${where} stage config should be a string`);
    return null;
  }
  if (!allStages.includes(stage)) {
    errors.push(`${where} chosen stage ${stage} does not exist; available stages are ${allStages.join(', ')}`);
    return null;
  }

  let when: JobWhen = 'on_success';
  if (raw.when !== undefined) {
    if (typeof raw.when !== 'string' || !WHEN_VALUES.includes(raw.when as JobWhen)) {
      errors.push(`${where} when should be one of: ${WHEN_VALUES.join(', ')}`);
      return null;
    }
    when = raw.when as JobWhen;
  }
  let startInSeconds: number | null = null;
  if (raw.start_in !== undefined) {
    if (when !== 'delayed' && !('rules' in raw)) {
      errors.push(`${where} start in should be blank`);
      return null;
    }
    startInSeconds = parseDuration(raw.start_in);
    if (startInSeconds === null) {
      errors.push(`${where} job start in should be a duration`);
      return null;
    }
    if (startInSeconds > ONE_WEEK) {
      errors.push(`${where} job start in should not exceed the limit`);
      return null;
    }
  } else if (when === 'delayed') {
    errors.push(`${where} start in can't be blank`);
    return null;
  }

  const allowFailureRaw = raw.allow_failure;
  let allowFailure: boolean | null = null;
  let allowFailureExitCodes: number[] = [];
  if (allowFailureRaw !== undefined) {
    if (typeof allowFailureRaw === 'boolean') allowFailure = allowFailureRaw;
    else if (isHash(allowFailureRaw) && 'exit_codes' in allowFailureRaw) {
      const codes = allowFailureRaw.exit_codes;
      const list = typeof codes === 'number' ? [codes] : codes;
      if (!Array.isArray(list) || !list.every((c) => Number.isInteger(c))) {
        errors.push(`${where}:allow_failure exit codes should be an array of integers or an integer`);
        return null;
      }
      allowFailure = false;
      allowFailureExitCodes = list as number[];
    } else {
      errors.push(`${where} allow_failure config should be a hash or a boolean value`);
      return null;
    }
  }

  const variables = readVariables(raw.variables, `${where} `, errors, false);

  const tagsValue = fromDefault('tags');
  let tags: string[] = [];
  if (tagsValue !== undefined && tagsValue !== null) {
    const list = stringList(tagsValue) ?? (Array.isArray(tagsValue) && tagsValue.every((t) => typeof t === 'string' || typeof t === 'number') ? tagsValue.map(String) : null);
    if (!list) {
      errors.push(`${where} tags config should be an array of strings`);
      return null;
    }
    tags = list;
  }

  let coverageRegex: string | null = null;
  if (raw.coverage !== undefined && raw.coverage !== null) {
    const m = typeof raw.coverage === 'string' ? /^\/(.+)\/[a-z]*$/s.exec(raw.coverage) : null;
    if (!m) {
      errors.push(`${where} coverage config must be a regular expression`);
      return null;
    }
    coverageRegex = m[1];
    try {
      compilePattern(coverageRegex);
    } catch {
      errors.push(`${where} coverage config must be a regular expression`);
      return null;
    }
  }

  const artifacts = fromDefault('artifacts');
  let junitPaths: string[] = [];
  let artifactPaths: string[] = [];
  if (artifacts !== undefined && artifacts !== null) {
    if (!isHash(artifacts)) {
      errors.push(`${where} artifacts config should be a hash`);
      return null;
    }
    if (artifacts.paths !== undefined) artifactPaths = stringList(artifacts.paths) ?? [];
    if (isHash(artifacts.reports) && artifacts.reports.junit !== undefined) {
      const list = stringList(artifacts.reports.junit);
      if (!list) {
        errors.push(`${where}:artifacts:reports junit should be an array of strings or a string`);
        return null;
      }
      junitPaths = list;
    }
  }

  const retry = readRetry(fromDefault('retry'), where, errors);
  if (!retry) return null;

  let timeoutSeconds: number | null = null;
  const timeout = fromDefault('timeout');
  if (timeout !== undefined && timeout !== null) {
    timeoutSeconds = parseDuration(timeout);
    if (timeoutSeconds === null || timeoutSeconds <= 0) {
      errors.push(`${where} timeout config should be a duration`);
      return null;
    }
    if (timeoutSeconds > 30 * 24 * 3600) {
      errors.push(`${where} timeout config should not exceed the limit`);
      return null;
    }
  }

  const needs = needsList(raw.needs, where, errors);
  let rules: Raw[] | null = null;
  if (raw.rules !== undefined) {
    rules = validateRules(raw.rules, where, errors);
    if (!rules) return null;
  }
  const environment = typeof raw.environment === 'string' ? raw.environment : isHash(raw.environment) && typeof raw.environment.name === 'string' ? raw.environment.name : null;
  return {
    plan: {
      stage,
      when,
      startInSeconds,
      allowFailure: allowFailure ?? when === 'manual',
      allowFailureExitCodes,
      beforeScript,
      script: script ?? [],
      afterScript,
      variables,
      tags,
      coverageRegex,
      junitPaths,
      retry,
      timeoutSeconds,
      inheritVariables: inheritSetting(raw.inherit, 'variables'),
      artifactPaths,
      environment,
      interruptible: fromDefault('interruptible') === true,
      resourceGroup: typeof raw.resource_group === 'string' ? raw.resource_group : null,
      trigger,
    },
    needs,
    rules,
    explicitAllowFailure: allowFailure !== null,
  };
}

/** Parses, includes, validates and applies rules. Jobs that rules exclude are not in the plan. */
export function planPipeline(ciYaml: string, context: CiContext): PlanResult {
  try {
    const loaded = loadConfig(ciYaml, context);
    if (!loaded.ok) return loaded;
    return buildPlan(loaded.config, context);
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, errors: [error.message] };
    // a recursive alias (`a: &a [*a]`) has no end to walk
    if (error instanceof RangeError) return { ok: false, errors: ['Invalid configuration format'] };
    throw error;
  }
}

function buildPlan(config: Raw, context: CiContext): PlanResult {
  const errors: string[] = [];

  // Global keywords.
  let declaredStages = DEFAULT_STAGES;
  const stagesValue = config.stages ?? config.types;
  if (stagesValue !== undefined) {
    if (!Array.isArray(stagesValue) || !stagesValue.every((s) => typeof s === 'string')) {
      errors.push('stages config should be an array of strings');
    } else declaredStages = stagesValue as string[];
  }
  const allStages = ['.pre', ...declaredStages.filter((s) => s !== '.pre' && s !== '.post'), '.post'];
  const globalVariables = readVariables(config.variables, '', errors, true);
  const defaults: Raw = isHash(config.default) ? { ...config.default } : {};
  if (config.default !== undefined && !isHash(config.default)) errors.push('default config should be a hash');
  const unknownDefault = Object.keys(defaults).filter((k) => !DEFAULT_KEYS.has(k));
  if (unknownDefault.length > 0) errors.push(`default config contains unknown keys: ${unknownDefault.join(', ')}`);
  for (const legacy of ['before_script', 'after_script', 'image', 'services', 'cache']) {
    if (legacy in config && !(legacy in defaults)) defaults[legacy] = config[legacy];
  }

  // workflow: rules decide whether there is a pipeline at all; workflow: name names it.
  let workflowVariables: Record<string, string> = {};
  let pipelineName: string | null = null;
  if (config.workflow !== undefined) {
    if (!isHash(config.workflow)) errors.push('workflow config should be a hash');
    else {
      const unknown = Object.keys(config.workflow).filter((k) => !['rules', 'name', 'auto_cancel'].includes(k));
      if (unknown.length > 0) errors.push(`workflow config contains unknown keys: ${unknown.join(', ')}`);
      if (config.workflow.rules !== undefined) {
        const rules = validateRules(config.workflow.rules, 'workflow', errors);
        if (rules && errors.length === 0) {
          const outcome = applyRules(rules, { ...globalVariables, ...context.variables }, context, 'workflow', errors);
          if (!outcome) {
            return { ok: true, plan: { stages: [], variables: globalVariables, jobs: [], name: null, notRunReason: WORKFLOW_FILTERED_MESSAGE } };
          }
          workflowVariables = outcome.variables ?? {};
        }
      }
      if (typeof config.workflow.name === 'string') pipelineName = config.workflow.name;
    }
  }
  const pipelineVariables = { ...globalVariables, ...workflowVariables };

  // Jobs: every other key; hidden ones (.name) only serve extends and !reference.
  const jobNames = Object.keys(config).filter((k) => !GLOBAL_KEYS.has(k) && !k.startsWith('.'));
  const extendsCache = new Map<string, Raw>();
  const drafts: DraftJob[] = [];
  const planned = new Map<string, JobPlan>();
  const baseNames = new Map<string, string[]>();

  for (const name of jobNames) {
    const where = `jobs:${name}`;
    if (!isHash(config[name])) {
      errors.push(`${where} config should be a hash`);
      continue;
    }
    const raw = resolveExtends(config, name, [], errors, extendsCache);
    const template = readJob(name, raw, defaults, allStages, errors);
    if (!template) continue;
    const copies = parallelCopies(name, raw.parallel, where, errors);
    baseNames.set(name, copies.map((c) => c.name));
    for (const copy of copies) {
      const { variables } = template.plan;
      planned.set(copy.name, {
        ...template.plan,
        name: copy.name,
        stageIndex: allStages.indexOf(template.plan.stage),
        needs: null,
        variables: copy.parallel?.matrix ? { ...variables, ...copy.parallel.matrix } : variables,
        parallel: copy.parallel,
      });
      drafts.push({
        name: copy.name,
        needs: template.needs,
        rules: template.rules,
        only: raw.only,
        except: raw.except,
        explicitAllowFailure: template.explicitAllowFailure,
      });
    }
  }

  if (errors.length > 0) return { ok: false, errors: unique(errors) };
  if (jobNames.length === 0 || planned.size === 0) return { ok: false, errors: ['jobs config should contain at least one visible job'] };

  // needs: every named job exists, in the same or an earlier stage, and there is no cycle.
  const expandNeed = (need: string): string[] => baseNames.get(need) ?? (planned.has(need) ? [need] : []);
  for (const draft of drafts) {
    for (const need of draft.needs ?? []) {
      const targets = expandNeed(need.job);
      if (targets.length === 0) {
        if (need.optional) continue;
        errors.push(`${draft.name} job: undefined need: ${need.job}`);
        continue;
      }
      for (const target of targets) {
        if (planned.get(target)!.stageIndex > planned.get(draft.name)!.stageIndex) {
          errors.push(`${draft.name} job: need ${need.job} is not defined in current or prior stages`);
        }
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors: unique(errors) };
  if (hasCycle(drafts, expandNeed)) return { ok: false, errors: ['The pipeline has circular dependencies'] };

  // Rules: which jobs the pipeline gets, and with what `when`, `allow_failure` and variables.
  const kept: JobPlan[] = [];
  const keptNeeds = new Map<string, Array<{ job: string; optional: boolean }> | null>();
  for (const draft of drafts) {
    const plan = planned.get(draft.name)!;
    const seen = { ...inheritedVariables(pipelineVariables, plan.inheritVariables), ...plan.variables, ...context.variables };
    let needs = draft.needs;
    if (draft.rules) {
      const outcome = applyRules(draft.rules, expandVariables(seen), context, `jobs:${draft.name}`, errors);
      if (!outcome) continue;
      if (outcome.when) plan.when = outcome.when as JobWhen;
      if (outcome.startIn !== undefined) plan.startInSeconds = parseDuration(outcome.startIn);
      if (plan.when === 'delayed' && plan.startInSeconds === null) {
        errors.push(`jobs:${draft.name}:rules:rule start_in can't be blank when when is delayed`);
        continue;
      }
      if (typeof outcome.allowFailure === 'boolean') plan.allowFailure = outcome.allowFailure;
      else if (!draft.explicitAllowFailure) plan.allowFailure = false; // manual jobs in rules block by default
      if (outcome.variables) plan.variables = { ...plan.variables, ...outcome.variables };
      if (outcome.needs !== undefined) needs = needsList(outcome.needs, `jobs:${draft.name}`, errors);
    } else {
      if (draft.only !== undefined && !onlyExceptMatch(draft.only, context.variables)) continue;
      if (draft.except !== undefined && onlyExceptMatch(draft.except, context.variables)) continue;
    }
    keptNeeds.set(draft.name, needs);
    kept.push(plan);
  }
  if (errors.length > 0) return { ok: false, errors: unique(errors) };
  if (kept.length === 0) {
    return { ok: true, plan: { stages: [], variables: pipelineVariables, jobs: [], name: null, notRunReason: RULES_PREVENTED_MESSAGE } };
  }

  // needs after rules: a needed job that rules left out is an error unless the need is optional.
  const keptNames = new Set(kept.map((j) => j.name));
  for (const job of kept) {
    const needs = keptNeeds.get(job.name);
    if (!needs) continue;
    const names: string[] = [];
    for (const need of needs) {
      const targets = expandNeed(need.job).filter((t) => keptNames.has(t));
      if (targets.length === 0 && !need.optional) {
        errors.push(
          `'${job.name}' job needs '${need.job}' job, but '${need.job}' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.`,
        );
      }
      for (const target of targets) if (!names.includes(target)) names.push(target);
    }
    job.needs = names;
  }
  if (errors.length > 0) return { ok: false, errors: unique(errors) };

  // Stages of the plan: only those with jobs, in declared order; stageIndex into that list.
  const stages = allStages.filter((stage) => kept.some((job) => job.stage === stage));
  for (const job of kept) job.stageIndex = stages.indexOf(job.stage);
  kept.sort((a, b) => a.stageIndex - b.stageIndex);
  const name = pipelineName === null ? null : expandTextWith(pipelineName, { ...pipelineVariables, ...context.variables });
  return { ok: true, plan: { stages, variables: pipelineVariables, jobs: kept, name, notRunReason: null } };
}

function expandTextWith(text: string, variables: Record<string, string>): string {
  const all = expandVariables({ ...variables, __TEXT__: text });
  return all.__TEXT__;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function hasCycle(drafts: DraftJob[], expandNeed: (need: string) => string[]): boolean {
  const edges = new Map<string, string[]>();
  for (const draft of drafts) edges.set(draft.name, (draft.needs ?? []).flatMap((n) => expandNeed(n.job)));
  const state = new Map<string, 1 | 2>();
  const visit = (node: string): boolean => {
    const s = state.get(node);
    if (s === 1) return true;
    if (s === 2) return false;
    state.set(node, 1);
    for (const next of edges.get(node) ?? []) if (visit(next)) return true;
    state.set(node, 2);
    return false;
  };
  return drafts.some((d) => visit(d.name));
}

function readRetry(value: unknown, where: string, errors: string[]): JobPlan['retry'] | null {
  if (value === undefined || value === null) return { max: 0, when: ['always'] };
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 2) {
      errors.push(`${where} retry config must be an integer from 0 to 2`);
      return null;
    }
    return { max: value, when: ['always'] };
  }
  if (isHash(value)) {
    const unknown = Object.keys(value).filter((k) => !['max', 'when', 'exit_codes'].includes(k));
    if (unknown.length > 0) {
      errors.push(`${where}:retry config contains unknown keys: ${unknown.join(', ')}`);
      return null;
    }
    const max = value.max ?? 0;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > 2) {
      errors.push(`${where}:retry max config must be an integer from 0 to 2`);
      return null;
    }
    let exitCodes: number[] | undefined;
    if (value.exit_codes !== undefined) {
      const list = typeof value.exit_codes === 'number' ? [value.exit_codes] : value.exit_codes;
      if (!Array.isArray(list) || !list.every((c) => Number.isInteger(c))) {
        errors.push(`${where}:retry exit codes should be an array of integers or an integer`);
        return null;
      }
      exitCodes = list as number[];
    }
    // with exit_codes and no when, only those exit codes retry
    const when = value.when === undefined ? (exitCodes ? [] : ['always']) : stringList(value.when);
    if (!when) {
      errors.push(`${where}:retry when should be an array of strings or a string`);
      return null;
    }
    const bad = when.filter((w) => !RETRY_WHEN.includes(w));
    if (bad.length > 0) {
      errors.push(`${where}:retry when contains unknown values: ${bad.join(', ')}`);
      return null;
    }
    return exitCodes ? { max, when, exitCodes } : { max, when };
  }
  errors.push(`${where} retry config has to be either an integer or a hash`);
  return null;
}

function readTrigger(value: unknown, where: string, errors: string[]): JobPlan['trigger'] {
  if (value === undefined || value === null) return null;
  if (!isHash(value) || value.include === undefined) {
    errors.push(`${where} trigger config must include a local child pipeline (trigger:include) on this instance`);
    return null;
  }
  const include = includeLocations(value.include);
  const locals = include.flatMap((entry) => ('local' in entry ? [entry.local.replace(/^\/+/, '')] : []));
  if (locals.length !== include.length || locals.length === 0) {
    errors.push(`${where}:trigger:include config supports local files only on this instance`);
    return null;
  }
  const forward = isHash(value.forward) ? value.forward : {};
  return {
    include: locals,
    strategy: value.strategy === 'depend' ? 'depend' : null,
    forward: { yamlVariables: forward.yaml_variables !== false, pipelineVariables: forward.pipeline_variables === true },
  };
}

/**
 * The CI file of a `trigger:` job's child pipeline: its local includes, merged as one file. The
 * worker plans it with `planPipeline` (CI_PIPELINE_SOURCE `parent_pipeline`) at the parent's sha.
 */
export function triggerConfig(trigger: NonNullable<JobPlan['trigger']>): string {
  return `include:\n${trigger.include.map((path) => `  - local: ${JSON.stringify(path)}\n`).join('')}`;
}

/**
 * The file's top-level `variables` with `description`, `value` and `options` (GraphQL
 * ciConfigVariables): every one, as the platform answers it (a plain `KEY: value` has a null
 * description; the platform's run form prefills only those with one). Empty for a file that does not load.
 */
export function configVariables(
  ciYaml: string,
  context: CiContext,
): Array<{ key: string; value: string; description: string | null; valueOptions: string[] }> {
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(ciYaml, context);
  } catch {
    return [];
  }
  if (!loaded.ok || !isHash(loaded.config.variables)) return [];
  const out: Array<{ key: string; value: string; description: string | null; valueOptions: string[] }> = [];
  for (const [key, raw] of Object.entries(loaded.config.variables)) {
    const plain = variableValue(raw);
    if (plain !== null) out.push({ key, value: plain, description: null, valueOptions: [] });
    else if (isHash(raw)) {
      out.push({
        key,
        value: variableValue(raw.value ?? '') ?? '',
        description: typeof raw.description === 'string' ? raw.description : null,
        valueOptions: Array.isArray(raw.options) ? raw.options.map(String) : [],
      });
    }
  }
  return out;
}
