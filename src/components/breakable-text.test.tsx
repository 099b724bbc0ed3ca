import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { BreakableText } from './breakable-text.tsx';

describe('BreakableText', () => {
  it('offers a line break after each joint of an address', () => {
    expect(renderToStaticMarkup(<BreakableText text="maya.chen@acme.example" />)).toBe(
      '<span class="breakable breakable--joints">maya.<wbr/>chen@<wbr/>acme.<wbr/>example</span>',
    );
  });

  it('leaves text without joints whole, and escapes what it renders', () => {
    expect(renderToStaticMarkup(<BreakableText text="plain" />)).toBe('<span class="breakable--short">plain</span>');
    expect(renderToStaticMarkup(<BreakableText text="<b>a long enough</b>" />)).toBe('<span class="breakable breakable--joints">&lt;b&gt;a long enough&lt;/<wbr/>b&gt;</span>');
  });

  it('adds nothing to a short name, which fits any column', () => {
    expect(renderToStaticMarkup(<BreakableText text="diego.ramirez" />)).toBe('<span class="breakable--short">diego.ramirez</span>');
  });
});
