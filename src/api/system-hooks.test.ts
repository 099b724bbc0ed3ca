import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  EMPTY_HOOK_FORM, branchFilterProblem, createHookSchema, fetchHookDeliveries, hookErrorField, hookUrlShapeValid, missingUrlVariables,
  systemHookSchema, updateHookSchema, urlPlaceholders, type CreateHookInput,
} from './system-hooks.ts';
import { ApiError } from './errors.ts';

const form = (changes: Partial<CreateHookInput>): CreateHookInput => ({ ...EMPTY_HOOK_FORM, url: 'https://hooks.example.com/in', ...changes });
const issues = (result: ReturnType<typeof z.safeParse>) => (result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));

describe('URL placeholders', () => {
  it('finds each {key} once, in order, with the platform key grammar', () => {
    expect(urlPlaceholders('https://x.test/{path}/{api.key}?t={path}&{9bad}&{a_b-c1}')).toEqual(['path', 'api.key', 'a_b-c1']);
    expect(urlPlaceholders('https://x.test/plain')).toEqual([]);
  });

  it('names the placeholders no known key fills', () => {
    expect(missingUrlVariables('https://x.test/{a}/{b}', ['a'])).toEqual(['b']);
    expect(missingUrlVariables('https://x.test/{a}', ['a'])).toEqual([]);
  });

  it('accepts http(s) URLs whose host is a placeholder, refuses other schemes', () => {
    expect(hookUrlShapeValid('http://{host}:8080/hook')).toBe(true);
    expect(hookUrlShapeValid('ftp://x.test/')).toBe(false);
    expect(hookUrlShapeValid('not a url')).toBe(false);
  });
});

describe('branch filter rules', () => {
  it('checks wildcards against git ref names and regexes by compiling them', () => {
    expect(branchFilterProblem('wildcard', 'release/*')).toBeNull();
    expect(branchFilterProblem('wildcard', 'bad..name')).toMatch(/branch name/);
    expect(branchFilterProblem('regex', '^(main|dev)$')).toBeNull();
    expect(branchFilterProblem('regex', '(unclosed')).toMatch(/regular expression/);
    // all branches takes no filter, whatever is typed
    expect(branchFilterProblem('all_branches', '(unclosed')).toBeNull();
    expect(branchFilterProblem('wildcard', '')).toBeNull();
  });
});

describe('hook form schemas', () => {
  it('accepts the defaults with a URL and requires one', () => {
    expect(issues(z.safeParse(createHookSchema, form({})))).toEqual([]);
    expect(issues(z.safeParse(createHookSchema, form({ url: ' ' })))).toEqual(['url: Give the URL the events are posted to']);
  });

  it('wants a variable for every placeholder, and valid keys and values', () => {
    expect(issues(z.safeParse(createHookSchema, form({ url: 'https://x.test/{secret}' })))).toEqual(['url: Add a URL variable for {secret}']);
    expect(issues(z.safeParse(createHookSchema, form({ url: 'https://x.test/{secret}', url_variables: [{ key: 'secret', value: 's3' }] })))).toEqual([]);
    expect(issues(z.safeParse(createHookSchema, form({ url_variables: [{ key: '1x', value: '' }] })))).toEqual([
      'url_variables.0.key: Letters first, then digits; parts joined by . _ or -',
      'url_variables.0.value: Give the variable a value',
    ]);
    expect(issues(z.safeParse(createHookSchema, form({ url_variables: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] })))).toEqual(['url_variables.1.key: This key is already in the list']);
  });

  it('puts a bad branch filter on its field and refuses a multi-line token', () => {
    expect(issues(z.safeParse(createHookSchema, form({ branch_filter_strategy: 'regex', push_events_branch_filter: '[' })))).toEqual(['push_events_branch_filter: This is not a valid regular expression']);
    expect(issues(z.safeParse(createHookSchema, form({ token: 'a\nb' })))).toEqual(['token: The token must fit on one line']);
  });

  it('on edit, counts the hook’s keys only while the URL stays the same', () => {
    const schema = updateHookSchema({ url: 'https://x.test/{secret}', url_variables: [{ key: 'secret' }] });
    const values = { ...form({ url: 'https://x.test/{secret}' }) };
    expect(issues(z.safeParse(schema, values))).toEqual([]);
    expect(issues(z.safeParse(schema, { ...values, url: 'https://y.test/{secret}' }))).toEqual(['url: Add a URL variable for {secret}']);
    // the update schema has no name or description: they are not sent
    const parsed = z.parse(schema, { ...values, name: 'n', description: 'd' });
    expect(parsed).not.toHaveProperty('name');
  });
});

describe('hook entity', () => {
  it('reads missing variables as none and an unknown strategy as wildcard', () => {
    const hook = z.parse(systemHookSchema, { id: 1, url: 'https://x.test', created_at: '2026-01-01T00:00:00Z', push_events: null, branch_filter_strategy: null });
    expect(hook).toMatchObject({ url_variables: [], branch_filter_strategy: 'wildcard', push_events: false });
  });
});

describe('hookErrorField', () => {
  it('maps the platform’s 422 texts to the field they are about', () => {
    expect(hookErrorField(new ApiError(422, 'Invalid url given'))).toBe('url');
    expect(hookErrorField(new ApiError(422, 'Invalid branch filter given'))).toBe('push_events_branch_filter');
    expect(hookErrorField(new ApiError(400, 'Invalid url given'))).toBeNull();
  });
});

describe('fetchHookDeliveries', () => {
  afterEach(() => vi.unstubAllGlobals());
  const connection = { instanceUrl: 'https://gitlab.example.com/', token: 't' };
  const answer = (body: string, status: number, type: string) => vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } }));

  it('reads the sandbox log outside /api/v4, with the token in a header', async () => {
    const fetchMock = answer(JSON.stringify([{ id: 3, trigger: 'system_hook', response_status: '200', execution_duration: 0.01, internal_error_message: null, created_at: '2026-01-01T00:00:00Z' }]), 200, 'application/json');
    vi.stubGlobal('fetch', fetchMock);
    const result = await fetchHookDeliveries(connection, 7);
    expect(result).toMatchObject({ available: true, deliveries: [{ id: 3, response_status: '200' }] });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://gitlab.example.com/-/sandbox/hooks/7/deliveries');
    expect((init.headers as Record<string, string>)['PRIVATE-TOKEN']).toBe('t');
  });

  it('says "not available" for an HTML page, a 404 or an unreachable route', async () => {
    vi.stubGlobal('fetch', answer('<html>sign in</html>', 200, 'text/html'));
    expect(await fetchHookDeliveries(connection, 7)).toEqual({ available: false });
    vi.stubGlobal('fetch', answer('{"message":"404 Not Found"}', 404, 'application/json'));
    expect(await fetchHookDeliveries(connection, 7)).toEqual({ available: false });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await fetchHookDeliveries(connection, 7)).toEqual({ available: false });
  });

  it('reports a server failure as an error the screen can retry', async () => {
    vi.stubGlobal('fetch', answer('{"message":"boom"}', 500, 'application/json'));
    await expect(fetchHookDeliveries(connection, 7)).rejects.toMatchObject({ status: 500, message: 'boom' });
  });
});
