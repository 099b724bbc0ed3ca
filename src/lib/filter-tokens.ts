/**
 * The filter bar's tokens (`label is not wontfix`) and the URL's search params, one to one: every
 * token is a search param (negated ones under `not_<field>`), so a list's filters can be
 * bookmarked. Pure: the issue and merge request lists describe their fields and get the same
 * reading, adding, removing and wording of tokens.
 */

/** Where a field's suggested values come from (the filter bar asks the API). */
export type SuggestionSource = 'users' | 'labels' | 'milestones' | 'branches';

export interface TokenFieldDef<F extends string = string> {
  field: F;
  label: string;
  /** Has a negated form (`not[...]` in the API, `not_<field>` in the URL). */
  negatable: boolean;
  /** Several values at once (a list in the URL), or one that a new token replaces. */
  many: boolean;
  /** The platform's words rather than names (None, Any...): in a list, one stands alone. */
  special?: readonly string[];
  /** The only values there are: the bar offers a select rather than a text box. */
  choices?: ReadonlyArray<{ value: string; label: string }>;
  suggest?: SuggestionSource;
  placeholder?: string;
  numeric?: boolean;
  /** Why a (trimmed, non-empty) value cannot be a filter. */
  check?: (value: string) => string | undefined;
  /** At most this many values of a list field. */
  max?: number;
  /** The URL's form of a value and back (default: the text itself). */
  toUrl?: (value: string) => unknown;
  fromUrl?: (value: unknown) => string;
  /** What the URL holds when the field is unset (default undefined; lists are always []). */
  empty?: unknown;
}

/** One filter as the bar shows it. */
export interface FilterToken<F extends string = string> {
  field: F;
  negated: boolean;
  value: string;
}

export interface TokenModel<S, F extends string> {
  fields: ReadonlyArray<TokenFieldDef<F>>;
  fieldInfo: (field: F) => TokenFieldDef<F>;
  tokensFromSearch: (search: S) => Array<FilterToken<F>>;
  tokenProblem: (token: FilterToken<F>, search?: S) => string | undefined;
  addToken: (search: S, token: FilterToken<F>) => S;
  removeToken: (search: S, token: FilterToken<F>) => S;
  clearTokens: (search: S) => S;
  tokenText: (token: FilterToken<F>) => string;
  isFiltered: (search: S) => boolean;
}

const urlKey = (field: string, negated: boolean) => (negated ? `not_${field}` : field);

/**
 * The token logic of one list's fields. `reset` is what any change of filters also sets (back to
 * the first page: the old page number means nothing in another result).
 */
export function tokenModel<S extends object, F extends string>(fields: ReadonlyArray<TokenFieldDef<F>>, reset: Partial<S>): TokenModel<S, F> {
  const fieldInfo = (field: F) => {
    const info = fields.find((candidate) => candidate.field === field);
    if (!info) throw new Error(`Unknown filter field ${field}`);
    return info;
  };
  const read = (info: TokenFieldDef<F>, value: unknown) => (info.fromUrl ? info.fromUrl(value) : String(value));
  const write = (info: TokenFieldDef<F>, value: string) => (info.toUrl ? info.toUrl(value) : value);
  const record = (search: S) => search as unknown as Record<string, unknown>;
  const listOf = (search: S, key: string): unknown[] => {
    const value = record(search)[key];
    return Array.isArray(value) ? value : [];
  };

  const tokensFromSearch = (search: S) => {
    const tokens: Array<FilterToken<F>> = [];
    for (const info of fields) {
      for (const negated of info.negatable ? [false, true] : [false]) {
        const key = urlKey(info.field, negated);
        if (info.many) for (const value of listOf(search, key)) tokens.push({ field: info.field, negated, value: read(info, value) });
        else {
          const value = record(search)[key];
          if (value !== undefined && value !== null && value !== '') tokens.push({ field: info.field, negated, value: read(info, value) });
        }
      }
    }
    return tokens;
  };

  const tokenProblem = (token: FilterToken<F>, search?: S) => {
    const info = fieldInfo(token.field);
    const value = token.value.trim();
    if (!value) return 'Enter a value.';
    if (token.negated && !info.negatable) return `${info.label} cannot be negated.`;
    if (info.choices && !info.check && !info.choices.some((choice) => choice.value === value)) {
      return `Choose one of ${info.choices.map((choice) => choice.label).join(', ')}.`;
    }
    const wrong = info.check?.(value);
    if (wrong) return wrong;
    if (search && info.many && info.max !== undefined && !(info.special ?? []).includes(value)) {
      const names = listOf(search, urlKey(info.field, token.negated)).map((item) => read(info, item)).filter((item) => !(info.special ?? []).includes(item));
      if (!names.includes(value) && names.length >= info.max) return `At most ${info.max} values of ${info.label.toLowerCase()}.`;
    }
    return undefined;
  };

  const addToken = (search: S, token: FilterToken<F>) => {
    const info = fieldInfo(token.field);
    const value = token.value.trim();
    const key = urlKey(token.field, token.negated);
    const next = { ...record(search), ...reset } as Record<string, unknown>;
    if (info.many) {
      const special = info.special ?? [];
      // None and Any stand alone: they replace names, and a name replaces them
      const kept = special.includes(value) ? [] : listOf(search, key).filter((item) => !special.includes(read(info, item)));
      next[key] = kept.some((item) => read(info, item) === read(info, write(info, value))) ? kept : [...kept, write(info, value)];
    } else next[key] = write(info, value);
    return next as S;
  };

  const removeToken = (search: S, token: FilterToken<F>) => {
    const info = fieldInfo(token.field);
    const key = urlKey(token.field, token.negated);
    const next = { ...record(search), ...reset } as Record<string, unknown>;
    if (info.many) next[key] = listOf(search, key).filter((item) => read(info, item) !== token.value);
    else next[key] = info.empty;
    return next as S;
  };

  const clearTokens = (search: S) => tokensFromSearch(search).reduce(removeToken, { ...record(search), ...reset } as S);

  const tokenText = (token: FilterToken<F>) => {
    const info = fieldInfo(token.field);
    const value = info.choices?.find((choice) => choice.value === token.value)?.label ?? token.value;
    return `${info.label.toLowerCase()} ${token.negated ? 'is not' : 'is'} ${value}`;
  };

  return { fields, fieldInfo, tokensFromSearch, tokenProblem, addToken, removeToken, clearTokens, tokenText, isFiltered: (search) => tokensFromSearch(search).length > 0 };
}
