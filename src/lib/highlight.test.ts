import { describe, expect, it } from 'vitest';
import { highlightedLineNodes, highlightLines, languageFor, languageForFence, loadHighlighter, splitHighlightedLines } from './highlight.ts';

describe('languageFor', () => {
  it('knows languages by extension and by well-known names', () => {
    expect(languageFor('Order Summary.tsx')).toBe('typescript');
    expect(languageFor('glyph_table.rs')).toBe('rust');
    expect(languageFor('Dockerfile')).toBe('dockerfile');
    expect(languageFor('.bashrc')).toBe('bash');
    expect(languageFor('README')).toBeNull();
    expect(languageFor('.env')).toBeNull();
  });
});

describe('languageForFence', () => {
  it('reads a fence\'s info word as a grammar, an alias or an extension', () => {
    expect(languageForFence('typescript')).toBe('typescript');
    expect(languageForFence('TS')).toBe('typescript');
    expect(languageForFence('shell')).toBe('bash');
    expect(languageForFence('yml')).toBe('yaml');
    expect(languageForFence('mermaid')).toBeNull();
    expect(languageForFence('constructor')).toBeNull();
    expect(languageFor('x.constructor')).toBeNull();
  });
});

describe('splitHighlightedLines', () => {
  it('closes spans at a line break and reopens them on the next line', () => {
    expect(splitHighlightedLines('<span class="c">/* a\nb */</span> x\ny')).toEqual(['<span class="c">/* a</span>', '<span class="c">b */</span> x', 'y']);
  });
  it('keeps empty lines, including a last one', () => {
    expect(splitHighlightedLines('a\n\nb\n')).toEqual(['a', '', 'b', '']);
  });
});

describe('highlightLines', () => {
  it('escapes the file’s text and gives one line of HTML per line', async () => {
    const hljs = (await loadHighlighter('typescript'))!;
    const lines = ['const a = "<img src=x onerror=alert(1)>";', '/* one', 'two */'];
    const html = highlightLines(hljs, 'typescript', lines);
    expect(html).toHaveLength(3);
    expect(html[0]).not.toContain('<img');
    expect(html[0]).toContain('&lt;img');
    expect(html[2]).toMatch(/^<span class="hljs-comment">two \*\/<\/span>$/);
  });
});

describe('highlightedLineNodes', () => {
  it('turns a highlighted line into nested spans and the file\'s own text, never markup', async () => {
    const hljs = (await loadHighlighter('typescript'))!;
    const [line] = highlightLines(hljs, 'typescript', ['const a = "<img src=x onerror=alert(1)>" && b;']);
    const nodes = highlightedLineNodes(line);
    const text = (list: ReturnType<typeof highlightedLineNodes>): string => list.map((node) => (typeof node === 'string' ? node : text(node.children))).join('');
    expect(text(nodes)).toBe('const a = "<img src=x onerror=alert(1)>" && b;');
    expect(nodes).toContainEqual({ className: 'hljs-string', children: ['"<img src=x onerror=alert(1)>"'] });
    expect(highlightedLineNodes('<span class="a">x<span class="b">y</span></span>z')).toEqual([{ className: 'a', children: ['x', { className: 'b', children: ['y'] }] }, 'z']);
  });
});
