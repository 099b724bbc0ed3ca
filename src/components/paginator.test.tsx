import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Paginator } from './paginator.tsx';

describe('Paginator', () => {
  it('shows nothing under an empty list: no "0–0 of 0", no dead buttons', () => {
    expect(renderToStaticMarkup(<Paginator page={{ items: [], page: 1, perPage: 20, total: 0, totalPages: 0, links: {} }} label="Token pages" />)).toBe('');
  });
});
