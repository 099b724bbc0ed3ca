import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError, describeErrorBody } from './errors.ts';
import { request, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';

export const BRANCH_FILTER_STRATEGIES = [
  { value: 'wildcard', label: 'Wildcard pattern', help: 'A branch name, or a pattern with * such as release/*' },
  { value: 'regex', label: 'Regular expression', help: 'Branches whose name matches the expression' },
  { value: 'all_branches', label: 'All branches', help: 'Every push, whatever the branch' },
] as const;
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number]['value'];
const STRATEGY_VALUES = BRANCH_FILTER_STRATEGIES.map((strategy) => strategy.value) as [BranchFilterStrategy, ...BranchFilterStrategy[]];

/** The events a system hook can subscribe to, in the platform's field names. */
export const HOOK_EVENTS = [
  { field: 'push_events', label: 'Push', help: 'Commits pushed to a branch (the branch filter applies)' },
  { field: 'tag_push_events', label: 'Tag push', help: 'Tags created or deleted' },
  { field: 'merge_requests_events', label: 'Merge request', help: 'Merge requests opened, updated, merged or closed' },
  { field: 'repository_update_events', label: 'Repository update', help: 'Any change to a repository' },
] as const;
export type HookEventField = (typeof HOOK_EVENTS)[number]['field'];

/** spec 1, 2.4: URL variables by key only, the secret token never. */
export const systemHookSchema = loose({
  id: z.number(),
  url: z.string(),
  name: z.nullish(z.string()),
  description: z.nullish(z.string()),
  created_at: z.string(),
  push_events: flag,
  tag_push_events: flag,
  merge_requests_events: flag,
  repository_update_events: flag,
  enable_ssl_verification: flag,
  url_variables: z.pipe(z.nullish(z.array(loose({ key: z.string() }))), z.transform((value) => value ?? [])),
  push_events_branch_filter: z.nullish(z.string()),
  // older instances send no strategy: their filter is a wildcard one
  branch_filter_strategy: z.pipe(z.nullish(z.string()), z.transform((value): BranchFilterStrategy => (STRATEGY_VALUES as string[]).includes(value ?? '') ? (value as BranchFilterStrategy) : 'wildcard')),
});
export type SystemHook = z.infer<typeof systemHookSchema>;

/** One delivery from the sandbox's log (shaped like the platform's WebHookLog). */
export const hookDeliverySchema = loose({
  id: z.number(),
  trigger: z.nullish(z.string()),
  response_status: z.pipe(z.union([z.string(), z.number()]), z.transform(String)),
  execution_duration: z.nullish(z.number()),
  internal_error_message: z.nullish(z.string()),
  created_at: z.string(),
});
export type HookDelivery = z.infer<typeof hookDeliverySchema>;

/** Deliveries come from a sandbox-only endpoint: a real instance has no delivery log for system hooks. */
export type HookDeliveries = { available: true; deliveries: HookDelivery[] } | { available: false };

export interface HookListParams {
  page: number;
  per_page: number;
}

export const systemHooksQueries = {
  all: () => ['system-hooks'] as const,
  lists: () => [...systemHooksQueries.all(), 'list'] as const,
  list: (connection: Connection, params: HookListParams) =>
    queryOptions({
      queryKey: [...systemHooksQueries.lists(), params] as const,
      queryFn: ({ signal }) => requestPage(connection, '/hooks', systemHookSchema, { query: withoutEmpty(params), signal }),
    }),
  details: () => [...systemHooksQueries.all(), 'detail'] as const,
  detail: (connection: Connection, hookId: number) =>
    queryOptions({
      queryKey: [...systemHooksQueries.details(), hookId] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/hooks/${hookId}`, systemHookSchema, { signal }),
    }),
  deliveries: (connection: Connection, hookId: number) =>
    queryOptions({
      queryKey: [...systemHooksQueries.all(), 'deliveries', hookId] as const,
      queryFn: ({ signal }) => fetchHookDeliveries(connection, hookId, signal),
      // deliveries run in the background: keep looking while the log exists
      refetchInterval: (query) => (query.state.data?.available ? 2000 : false),
    }),
};

/**
 * GET /-/sandbox/hooks/:id/deliveries, outside /api/v4. Anything but a JSON list (no such route,
 * an HTML page, a sign-in redirect, a CORS refusal) means the instance has no such log.
 */
export async function fetchHookDeliveries(connection: Connection, hookId: number, signal?: AbortSignal): Promise<HookDeliveries> {
  const url = `${connection.instanceUrl.replace(/\/+$/, '')}${apiPath`/-/sandbox/hooks/${hookId}/deliveries`}`;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (connection.token) headers['PRIVATE-TOKEN'] = connection.token;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal, redirect: 'manual' });
  } catch {
    if (signal?.aborted) throw new ApiError(0, 'The request was cancelled.', 'aborted');
    return { available: false };
  }
  const json = (response.headers.get('content-type') ?? '').includes('json');
  let body: unknown = null;
  if (json) {
    try {
      body = await response.json();
    } catch {
      return { available: false };
    }
  }
  if (!json || response.status === 404 || response.type === 'opaqueredirect') return { available: false };
  if (!response.ok) throw new ApiError(response.status, describeErrorBody(body, response.status).message);
  const parsed = z.safeParse(z.array(hookDeliverySchema), body);
  return parsed.success ? { available: true, deliveries: parsed.data } : { available: false };
}

/** `{key}` placeholders of a hook URL (the platform's VARIABLE_REFERENCE_RE). */
const PLACEHOLDER = /\{([A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*)\}/g;
/** The URL variables schema (web_hooks_url_variables.json): at most 20, values of 1 to 2048 characters. */
export const URL_VARIABLE_KEY = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;
export const URL_VARIABLES_MAX = 20;
export const URL_VARIABLE_VALUE_MAX = 2048;
const BRANCH_FILTER_MAX = 4000;

/** The distinct keys a URL names as `{key}`, in order. */
export function urlPlaceholders(url: string): string[] {
  return [...new Set([...url.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/** Placeholders of the URL that no known variable fills: the platform refuses such a URL. */
export function missingUrlVariables(url: string, keys: readonly string[]): string[] {
  return urlPlaceholders(url).filter((key) => !keys.includes(key));
}

/** http(s) with a host once placeholders are filled (any value will do for the check). */
export function hookUrlShapeValid(url: string): boolean {
  try {
    const parsed = new URL(url.replace(PLACEHOLDER, 'x'));
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/** Git's ref-name rules with `*` for any text (the platform's wildcard branch filter check). */
function wildcardFilterValid(filter: string): boolean {
  const ref = filter.replaceAll('*', 'x');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?[\\]/.test(ref)) return false;
  if (ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock')) return false;
  if (ref.includes('..') || ref.includes('//') || ref.includes('@{') || ref === '@') return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.'));
}

/** Why a branch filter is refused, or null; an empty filter means every branch. */
export function branchFilterProblem(strategy: BranchFilterStrategy, filter: string): string | null {
  if (strategy === 'all_branches' || filter === '') return null;
  if (filter.length > BRANCH_FILTER_MAX) return `At most ${BRANCH_FILTER_MAX} characters`;
  if (strategy === 'regex') {
    try {
      new RegExp(filter);
      return null;
    } catch {
      return 'This is not a valid regular expression';
    }
  }
  return wildcardFilterValid(filter) ? null : 'Use a branch name or a pattern with *, such as release/*';
}

export const urlVariableSchema = z.object({
  key: z.string().check(
    z.trim(),
    z.minLength(1, 'Give the variable a key'),
    z.regex(URL_VARIABLE_KEY, 'Letters first, then digits; parts joined by . _ or -'),
  ),
  value: z.string().check(z.minLength(1, 'Give the variable a value'), z.maxLength(URL_VARIABLE_VALUE_MAX, `At most ${URL_VARIABLE_VALUE_MAX} characters`)),
});
export type UrlVariableInput = z.input<typeof urlVariableSchema>;

const hookFields = {
  url: z.string().check(z.trim(), z.minLength(1, 'Give the URL the events are posted to'), z.refine((url) => url === '' || hookUrlShapeValid(url), 'Use an http:// or https:// URL')),
  token: z.string().check(z.refine((value) => !/[\r\n]/.test(value), 'The token must fit on one line')),
  push_events: z.boolean(),
  tag_push_events: z.boolean(),
  merge_requests_events: z.boolean(),
  repository_update_events: z.boolean(),
  enable_ssl_verification: z.boolean(),
  branch_filter_strategy: z.enum(STRATEGY_VALUES),
  push_events_branch_filter: z.string(),
  /** Variables to add (or replace) with this save; values are write-only. */
  url_variables: z.array(urlVariableSchema),
};

/**
 * The platform's rules of a hook form: a valid branch filter for its strategy, every `{key}` of the
 * URL filled by a variable (known ones count only while the URL stays the same: a new URL clears them).
 */
function withHookRules<T extends z.ZodMiniObject<typeof hookFields>>(schema: T, knownKeys: (url: string) => readonly string[]) {
  return schema.check(
    z.superRefine((values, context) => {
      const problem = branchFilterProblem(values.branch_filter_strategy, values.push_events_branch_filter);
      if (problem) context.addIssue({ code: 'custom', path: ['push_events_branch_filter'], message: problem, input: values.push_events_branch_filter });
      const keys = [...knownKeys(values.url.trim()), ...values.url_variables.map((variable) => variable.key.trim())];
      const missing = missingUrlVariables(values.url.trim(), keys);
      if (missing.length) {
        context.addIssue({ code: 'custom', path: ['url'], message: `Add a URL variable for ${missing.map((key) => `{${key}}`).join(', ')}`, input: values.url });
      }
      const seen = new Set<string>();
      values.url_variables.forEach((variable, index) => {
        const key = variable.key.trim();
        if (seen.has(key)) context.addIssue({ code: 'custom', path: ['url_variables', index, 'key'], message: 'This key is already in the list', input: key });
        seen.add(key);
      });
      if (new Set([...knownKeys(values.url.trim()), ...seen]).size > URL_VARIABLES_MAX) {
        context.addIssue({ code: 'custom', path: ['url_variables'], message: `A hook has at most ${URL_VARIABLES_MAX} URL variables`, input: values.url_variables });
      }
    }),
  );
}

export const createHookSchema = withHookRules(
  z.object({
    ...hookFields,
    name: z.string().check(z.trim(), z.maxLength(255, 'At most 255 characters')),
    description: z.string().check(z.trim(), z.maxLength(2048, 'At most 2,048 characters')),
  }),
  () => [],
);
export type CreateHookInput = z.input<typeof createHookSchema>;
export type CreateHookValues = z.output<typeof createHookSchema>;

/** The edit form: the hook's keys still count while its URL is unchanged. */
export function updateHookSchema(hook: Pick<SystemHook, 'url' | 'url_variables'>) {
  return withHookRules(z.object(hookFields), (url) => (url === hook.url ? hook.url_variables.map((variable) => variable.key) : []));
}
export type UpdateHookInput = z.input<ReturnType<typeof updateHookSchema>>;
export type UpdateHookValues = z.output<ReturnType<typeof updateHookSchema>>;

export const EMPTY_HOOK_FORM: CreateHookInput = {
  url: '',
  name: '',
  description: '',
  token: '',
  // a system hook's defaults on the platform: repository updates on, the rest off, TLS verified
  push_events: false,
  tag_push_events: false,
  merge_requests_events: false,
  repository_update_events: true,
  enable_ssl_verification: true,
  branch_filter_strategy: 'wildcard',
  push_events_branch_filter: '',
  url_variables: [],
};

/** A hook as the edit form starts: the secret token never comes back, so its field starts empty. */
export function hookFormValues(hook: SystemHook): UpdateHookInput {
  return {
    url: hook.url,
    token: '',
    push_events: hook.push_events,
    tag_push_events: hook.tag_push_events,
    merge_requests_events: hook.merge_requests_events,
    repository_update_events: hook.repository_update_events,
    enable_ssl_verification: hook.enable_ssl_verification,
    branch_filter_strategy: hook.branch_filter_strategy,
    push_events_branch_filter: hook.push_events_branch_filter ?? '',
    url_variables: [],
  };
}

type HookSettings = z.output<z.ZodMiniObject<typeof hookFields>>;

/** The body both POST and PUT take; an empty token is left out (PUT keeps the current one). */
function hookBody(values: HookSettings): Record<string, unknown> {
  const body: Record<string, unknown> = {
    url: values.url,
    push_events: values.push_events,
    tag_push_events: values.tag_push_events,
    merge_requests_events: values.merge_requests_events,
    repository_update_events: values.repository_update_events,
    enable_ssl_verification: values.enable_ssl_verification,
    branch_filter_strategy: values.branch_filter_strategy,
  };
  // the filter only applies to the wildcard and regex strategies
  if (values.branch_filter_strategy !== 'all_branches') body.push_events_branch_filter = values.push_events_branch_filter;
  if (values.token) body.token = values.token;
  if (values.url_variables.length) body.url_variables = values.url_variables.map(({ key, value }) => ({ key, value }));
  return body;
}

export type CreateHookVariables = { values: CreateHookValues };
export type UpdateHookVariables = { hookId: number; values: UpdateHookValues };
export type DeleteHookVariables = { hookId: number };
export type TestHookVariables = { hookId: number };
export type SetUrlVariableVariables = { hookId: number; key: string; value: string };
export type DeleteUrlVariableVariables = { hookId: number; key: string };

/** POST /hooks: name and description are set here only (the documented update does not take them). */
export function createSystemHook(connection: Connection, { values }: CreateHookVariables): Promise<SystemHook> {
  return request(connection, '/hooks', systemHookSchema, {
    method: 'POST',
    body: { ...hookBody(values), name: values.name || undefined, description: values.description || undefined },
  });
}

/** PUT /hooks/:id: a new URL without a token clears the token and the URL variables (the platform's guard). */
export function updateSystemHook(connection: Connection, { hookId, values }: UpdateHookVariables): Promise<SystemHook> {
  return request(connection, apiPath`/hooks/${hookId}`, systemHookSchema, { method: 'PUT', body: hookBody(values) });
}

/** POST /hooks/:id runs the hook with mock data and answers with that data, whatever the receiver said. */
export async function testSystemHook(connection: Connection, { hookId }: TestHookVariables): Promise<unknown> {
  return (await send(connection, apiPath`/hooks/${hookId}`, { method: 'POST' })).data;
}

export async function deleteSystemHook(connection: Connection, { hookId }: DeleteHookVariables): Promise<void> {
  await send(connection, apiPath`/hooks/${hookId}`, { method: 'DELETE' });
}

/** PUT /hooks/:id/url_variables/:key: adds or replaces; the value is never readable afterwards. */
export async function setUrlVariable(connection: Connection, { hookId, key, value }: SetUrlVariableVariables): Promise<void> {
  await send(connection, apiPath`/hooks/${hookId}/url_variables/${key}`, { method: 'PUT', body: { value } });
}

/** DELETE /hooks/:id/url_variables/:key: refused (422) while the URL still names the key. */
export async function deleteUrlVariable(connection: Connection, { hookId, key }: DeleteUrlVariableVariables): Promise<void> {
  await send(connection, apiPath`/hooks/${hookId}/url_variables/${key}`, { method: 'DELETE' });
}

/** The platform's hook errors are `{"error": "..."}` texts; these name the field they are about. */
export function hookErrorField(error: unknown): 'url' | 'push_events_branch_filter' | 'token' | 'url_variables' | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  if (/invalid url/i.test(error.message)) return 'url';
  if (/branch filter/i.test(error.message)) return 'push_events_branch_filter';
  if (/token/i.test(error.message)) return 'token';
  if (/url variables|illegal key/i.test(error.message)) return 'url_variables';
  return null;
}
