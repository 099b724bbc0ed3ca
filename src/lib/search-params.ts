import * as z from 'zod/mini';
import { onFirstUse } from './first-use.ts';

/**
 * A route's search schema, built the first time it is used: the entry holds every route's
 * `validateSearch`, and building all of them made each cold start pay for the schemas of screens
 * it never visits. A Standard Schema, as the router takes one; `schema()` is the zod schema.
 */
export interface SearchSchema<S extends z.ZodMiniType> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => ReturnType<S['~standard']['validate']>;
    readonly types?: { readonly input: z.input<S>; readonly output: z.output<S> };
  };
  readonly schema: () => S;
}

/** What a search schema gives a screen: its URL's search params, with their defaults. */
export type SearchOf<T> = T extends SearchSchema<infer S> ? z.output<S> : never;

export function searchSchema<S extends z.ZodMiniType>(build: () => S): SearchSchema<S> {
  const schema = onFirstUse(build);
  return {
    '~standard': { version: 1, vendor: 'zod', validate: (value) => schema()['~standard'].validate(value) as ReturnType<S['~standard']['validate']> },
    schema,
  };
}

/** A search param that falls back to `fallback` when absent or invalid: a bad link still opens the list. */
export const withDefault = <T extends z.ZodMiniType>(schema: T, fallback: z.output<T>) => z.catch(z._default(schema, fallback as never), fallback as never);

/**
 * The page and page size of an offset list, as every list keeps them in its URL. This and the other
 * pieces of search schemas are built inside a schema's builder, on first use, like the schemas.
 */
export const pageParams = () => ({
  page: withDefault(z.number().check(z.int(), z.minimum(1)), 1),
  per_page: withDefault(z.union([z.literal(20), z.literal(50), z.literal(100)]), 20),
});

/** Texts in the URL (a filter given several times), none empty; [] when absent. */
export const textListParam = () => withDefault(z.array(z.string().check(z.minLength(1))), []);

/** A text in the URL that is absent rather than empty. */
export const optionalTextParam = () => z.catch(z.optional(z.string().check(z.minLength(1))), undefined);

/** What the groups and projects lists share in their URL: scope, text, sort, visibility and role, page. */
export interface ScopedListSearch {
  scope?: string;
  search: string;
  sort: string;
  visibility?: 'public' | 'internal' | 'private';
  min_access_level?: number;
  page: number;
  per_page: 20 | 50 | 100;
}

/** The shared fields' schemas; `scopes` and `sorts` are the list's own, the first sort its default. */
export function scopedListSearchFields<Scope extends string, Sort extends string>(scopes: readonly [Scope, ...Scope[]], sorts: ReadonlyArray<{ value: Sort }>) {
  return {
    /** Absent: the role's default (every one for an administrator, one's own for others). */
    scope: z.catch(z.optional(z.enum(scopes)), undefined),
    search: withDefault(z.string(), ''),
    sort: withDefault(z.enum(sorts.map((sort) => sort.value) as [Sort, ...Sort[]]), sorts[0].value),
    visibility: z.catch(z.optional(z.enum(['public', 'internal', 'private'])), undefined),
    min_access_level: z.catch(z.optional(z.number().check(z.int(), z.minimum(5), z.maximum(50))), undefined),
    ...pageParams(),
  };
}

/** The shared fields as API params: the scope defaulted by role, the sort split into order_by and sort. */
export function scopedListParams<Scope extends string, Order extends { value: string; order_by: string; sort: 'asc' | 'desc' }, S extends { scope?: Scope; sort: string }>(search: S, isAdmin: boolean, sorts: readonly Order[]) {
  const { scope, sort, ...rest } = search;
  const order = sorts.find((option) => option.value === sort) ?? sorts[0];
  return { ...rest, scope: scope ?? ((isAdmin ? 'all' : 'member') as Scope), order_by: order.order_by as Order['order_by'], sort: order.sort };
}

/** A calendar day (`YYYY-MM-DD`) in the URL, '' when not set; anything else falls back to ''. */
export const dayParam = () => withDefault(z.union([z.literal(''), z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))]), '');

const isUnset = (value: unknown) => value === undefined || value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0);

/**
 * How many of a list's search values (those its schema names, the page and `ignore` aside) are
 * set away from its defaults: what a folded filter section says it holds. The URL's other params
 * (which the router passes through) are not filters of the list.
 */
export function filtersSet<S extends object>(search: S, schema: { schema: () => { shape: object } }, defaults: Partial<S>, ignore: ReadonlyArray<keyof S> = []): number {
  const values = search as Record<string, unknown>;
  const fallbacks = defaults as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(schema.schema().shape)) {
    if (key === 'page' || ignore.includes(key as keyof S)) continue;
    const value = values[key];
    if (key in fallbacks ? JSON.stringify(value) !== JSON.stringify(fallbacks[key]) : !isUnset(value)) count++;
  }
  return count;
}
