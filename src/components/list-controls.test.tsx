import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { SearchInput } from './list-controls.tsx';

describe('SearchInput', () => {
  it('names its field with visible label text, not only a placeholder or aria-label', () => {
    const html = renderToStaticMarkup(<SearchInput label="Search groups" value="" onSearch={() => {}} placeholder="Name or path" />);
    expect(html).toMatch(/^<label[^>]*><span>Search groups<\/span><input [^>]*placeholder="Name or path"/);
    expect(html).not.toContain('aria-label');
  });
});
