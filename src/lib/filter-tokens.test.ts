import { describe, expect, it } from 'vitest';
import { tokenModel, type TokenFieldDef } from './filter-tokens.ts';

type Field = 'label' | 'author' | 'iid' | 'flag' | 'search' | 'kind';
interface Search {
  label: string[];
  not_label: string[];
  author?: string;
  not_author?: string;
  iid: number[];
  flag?: boolean;
  search: string;
  kind?: string;
  page: number;
}

const FIELDS: ReadonlyArray<TokenFieldDef<Field>> = [
  { field: 'label', label: 'Label', negatable: true, many: true, special: ['None', 'Any'], max: 2 },
  { field: 'author', label: 'Author', negatable: true, many: false },
  { field: 'iid', label: 'IID', negatable: false, many: true, toUrl: Number, check: (value) => (/^\d+$/.test(value) ? undefined : 'A number.') },
  { field: 'flag', label: 'Flag', negatable: false, many: false, choices: [{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }], toUrl: (value) => value === 'yes', fromUrl: (value) => (value ? 'yes' : 'no') },
  { field: 'search', label: 'Search', negatable: false, many: false, empty: '' },
  { field: 'kind', label: 'Kind', negatable: false, many: false, choices: [{ value: 'a', label: 'Kind A' }] },
];
const model = tokenModel<Search, Field>(FIELDS, { page: 1 });
const empty: Search = { label: [], not_label: [], iid: [], search: '', page: 3 };

describe('filter tokens and the URL', () => {
  it('reads every param as a token, field by field in the bar order, the plain value before the negated one', () => {
    const search: Search = { ...empty, not_label: ['wontfix'], label: ['bug'], not_author: 'root', iid: [4], flag: false, search: 'crash', kind: 'a' };
    expect(model.tokensFromSearch(search).map(model.tokenText)).toEqual([
      'label is bug', 'label is not wontfix', 'author is not root', 'iid is 4', 'flag is No', 'search is crash', 'kind is Kind A',
    ]);
    expect(model.isFiltered(search)).toBe(true);
    expect(model.isFiltered(empty)).toBe(false);
  });

  it('adds a token in its URL form: lists grow without repeats, single fields replace, special values stand alone, page back to 1', () => {
    let search = empty;
    search = model.addToken(search, { field: 'label', negated: false, value: ' bug ' });
    search = model.addToken(search, { field: 'label', negated: false, value: 'bug' });
    expect(search).toMatchObject({ label: ['bug'], page: 1 });
    search = model.addToken(search, { field: 'label', negated: false, value: 'None' });
    expect(search.label).toEqual(['None']);
    search = model.addToken(search, { field: 'label', negated: false, value: 'ui' });
    expect(search.label).toEqual(['ui']);
    search = model.addToken(search, { field: 'author', negated: true, value: 'maya' });
    search = model.addToken(search, { field: 'author', negated: true, value: 'diego' });
    search = model.addToken(search, { field: 'iid', negated: false, value: '12' });
    search = model.addToken(search, { field: 'iid', negated: false, value: '12' });
    search = model.addToken(search, { field: 'flag', negated: false, value: 'no' });
    expect(search).toMatchObject({ not_author: 'diego', iid: [12], flag: false });
    // every token removes what it stands for, and clearing leaves no token and the page at 1
    for (const token of model.tokensFromSearch(search)) expect(model.tokensFromSearch(model.removeToken(search, token))).not.toContainEqual(token);
    const cleared = model.clearTokens({ ...search, page: 5, search: 'x' });
    expect(model.tokensFromSearch(cleared)).toEqual([]);
    expect(cleared).toMatchObject({ search: '', page: 1, label: [], iid: [] });
    expect(cleared.flag).toBeUndefined();
  });

  it('refuses an empty value, a negation the field does not have, a value outside the choices, a failed check and one value too many', () => {
    expect(model.tokenProblem({ field: 'author', negated: false, value: ' ' })).toBe('Enter a value.');
    expect(model.tokenProblem({ field: 'iid', negated: true, value: '3' })).toBe('IID cannot be negated.');
    expect(model.tokenProblem({ field: 'iid', negated: false, value: 'x' })).toBe('A number.');
    expect(model.tokenProblem({ field: 'kind', negated: false, value: 'b' })).toBe('Choose one of Kind A.');
    const two = { ...empty, label: ['a', 'b'] };
    expect(model.tokenProblem({ field: 'label', negated: false, value: 'c' }, two)).toBe('At most 2 values of label.');
    // one already there, or a special value that replaces them, is fine
    expect(model.tokenProblem({ field: 'label', negated: false, value: 'a' }, two)).toBeUndefined();
    expect(model.tokenProblem({ field: 'label', negated: false, value: 'Any' }, two)).toBeUndefined();
    expect(model.tokenProblem({ field: 'label', negated: true, value: 'c' }, two)).toBeUndefined();
  });
});
