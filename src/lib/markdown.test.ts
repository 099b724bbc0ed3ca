import { describe, expect, it } from 'vitest';
import { realisticDescription } from '../../bench/markdown-sample.ts';
import { allowedImageSource, allowedLinkHref, findReferences, markdownToHtml, taskOffsets, toggleTask, withoutEventHandlers } from './markdown.ts';

const html = (source: string) => markdownToHtml(source, 'MARK');

describe('markdownToHtml', () => {
  it('renders CommonMark and GFM: tables, strikethrough, autolinks, fenced code', () => {
    expect(html('# Title\n\nSome *em* and **strong**.')).toBe('<h1>Title</h1>\n<p>Some <em>em</em> and <strong>strong</strong>.</p>');
    expect(html('| a | b |\n|:--|--:|\n| 1 | 2 |')).toBe(
      '<table>\n<thead>\n<tr>\n<th align="left">a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td align="left">1</td>\n<td align="right">2</td>\n</tr>\n</tbody></table>',
    );
    expect(html('~~gone~~')).toBe('<p><del>gone</del></p>');
    expect(html('see www.example.com and https://example.org/a?b=1 or ops@example.com')).toBe(
      '<p>see <a href="http://www.example.com">www.example.com</a> and <a href="https://example.org/a?b=1">https://example.org/a?b=1</a> or <a href="mailto:ops@example.com">ops@example.com</a></p>',
    );
    expect(html('```ts\nconst a = 1 < 2;\n```')).toBe('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>');
  });

  it('leaves entities for the HTML parser to decode, and escapes a bare ampersand', () => {
    // named references reach the HTML as written: the browser's parser knows them all
    expect(html('&copy; &amp; & &madeup; &#x41;')).toBe('<p>&copy; &amp; &amp; &madeup; A</p>');
  });

  it('marks task checkboxes with the caller\'s mark, checked or not', () => {
    expect(html('- [ ] open\n- [x] done')).toBe(
      '<ul>\n<li><input type="checkbox" data-task="MARK" /> open</li>\n<li><input type="checkbox" data-task="MARK" checked="" /> done</li>\n</ul>',
    );
  });

  it('passes raw HTML on for the sanitizer, without event handlers', () => {
    expect(html('<details open><summary>More</summary>\n\nHidden\n\n</details>')).toBe('<details open><summary>More</summary><p>Hidden</p>\n</details>');
    expect(html('a <img src="x" onerror="alert(1)"> b')).toBe('<p>a <img src="x" > b</p>');
  });

  it('shows block quotes and lists nested beyond 16 levels as text', () => {
    const output = html(`${'>'.repeat(50_000)} end`);
    expect(output.split('<blockquote>').length - 1).toBe(16);
    expect(output).toContain(`<pre><code>${'&gt;'.repeat(50_000 - 16)} end\n</code></pre>`);
    const lists = Array.from({ length: 20 }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n');
    expect(html(lists).split('<ul>').length - 1).toBe(16);
    expect(html(lists)).toContain('item 19');
  });
});

describe('a 100 KB description', () => {
  // printed, not asserted: speed is measured by the bench (npm run bench -- --only console.markdown)
  it('is parsed and its HTML printed in a time worth watching', () => {
    const source = realisticDescription(100_000);
    const started = performance.now();
    const output = markdownToHtml(source, 'MARK');
    console.log(`Markdown: ${Math.round(source.length / 1000)} KB parsed to ${Math.round(output.length / 1000)} KB of HTML in ${Math.round(performance.now() - started)} ms`);
    // three tasks a block: two in a list, one nested
    expect(output.split('data-task="MARK"').length - 1).toBe(3 * (source.split('- [ ] task').length - 1));
  }, 120_000);
});

describe('withoutEventHandlers', () => {
  it('removes on… attributes however the tokenizer would read them', () => {
    expect(withoutEventHandlers('<img src=x onerror=alert(1)>')).toBe('<img src=x >');
    expect(withoutEventHandlers('<img/onerror=alert(1)//>')).toBe('<img/>');
    expect(withoutEventHandlers('<svg\nONLOAD = "a()" x=1>')).toBe('<svg\n x=1>');
    expect(withoutEventHandlers(`<a title='>' onclick="a()">x</a>`)).toBe(`<a title='>' >x</a>`);
    expect(withoutEventHandlers('<div =onclick onmouseover=a()>')).toBe('<div =onclick >');
    expect(withoutEventHandlers('<img src="x" onerror="a()"')).toBe('<img src="x" ');
  });

  it('leaves text, comments and script or style text alone', () => {
    const text = 'a onclick=1 <!-- <img onerror=a()> --> <style>.x{}</style><script>"<img onerror=a()>"</script> 1 < 2 <? x onload=y ?>';
    expect(withoutEventHandlers(text)).toBe(text);
    expect(withoutEventHandlers('<!--><img onerror=a()>')).toBe('<!--><img >');
    expect(withoutEventHandlers('<textarea><b onclick=x></textarea><b onclick=x>')).toBe('<textarea><b onclick=x></textarea><b >');
  });
});

describe('toggleTask', () => {
  const source = '# Plan\n\n- [ ] first\n- [x] second\n  - [ ] nested\n\n```\n- [ ] in code\n```\n\n1. [X] numbered\n';

  it('checks and unchecks the n-th task as the renderer counts them', () => {
    expect(toggleTask(source, 0, true)).toBe(source.replace('- [ ] first', '- [x] first'));
    expect(toggleTask(source, 1, false)).toBe(source.replace('- [x] second', '- [ ] second'));
    expect(toggleTask(source, 2, true)).toBe(source.replace('  - [ ] nested', '  - [x] nested'));
    expect(toggleTask(source, 3, false)).toBe(source.replace('1. [X] numbered', '1. [ ] numbered'));
  });

  it('leaves the source as it is for a task that is not there', () => {
    expect(toggleTask(source, 4, true)).toBe(source);
  });

  it('finds tasks after tabs and CRLF line ends', () => {
    const windows = 'intro\r\n\r\n*\t[ ] tabbed\r\n* [ ] next\r\n';
    expect(toggleTask(windows, 1, true)).toBe('intro\r\n\r\n*\t[ ] tabbed\r\n* [x] next\r\n');
    expect(toggleTask(windows, 0, true)).toBe('intro\r\n\r\n*\t[x] tabbed\r\n* [ ] next\r\n');
  });

  // Sources where a wrong reading of the text would toggle the wrong box: every task of each is
  // toggled, rendered again, and exactly that task's checkbox (in document order) must have changed.
  const TRICKY = {
    'a fence holding the same text as a later task': '- [ ] same\n\n```\n- [ ] same\n```\n\n- [ ] same\n',
    'a tilde fence and an indented code block': '~~~md\n- [x] no\n~~~\n\n    - [ ] no\n\n- [ ] yes\n',
    'a fence inside a list item': '- [ ] one\n\n  ```\n  - [ ] no\n  ```\n- [x] two\n',
    'nested lists, deeper and back': '- [ ] a\n  - [x] b\n    - [ ] c\n      1. [ ] d\n  - [ ] e\n- [x] f\n',
    'block quotes, nested, with lazy lines': '> - [ ] q1\n> > - [x] q2\n> >   lazy\n> - [ ] q3\ncontinued\n\n- [ ] after\n',
    'a list inside a quote inside a list': '- [ ] outer\n  > - [ ] inner\n  > - [x] inner\n- [ ] last\n',
    'loose items with paragraphs': '- [ ] one\n\n  more text\n\n- [x] two\n\n  - [ ] two.a\n',
    'ordered lists with both delimiters': '1. [ ] a\n2. [x] b\n\n1) [ ] c\n9) [X] d\n',
    'boxes that are no tasks': '[ ] paragraph\n\n- [ ]\n- [x]not\n- text [ ] later\n- `[ ]` code\n\n<div>\n- [ ] html\n</div>\n\n- [ ] real\n',
    'tables and headings between tasks': '| a | b |\n|---|---|\n| - [ ] x | y |\n\n# - [ ] heading\n\n- [ ] real\n- [x] [ ] only the first\n',
    'tabs and CRLF inside quotes and lists': '>\t- [ ] tab\r\n>\t\t- [x] deeper\r\n\r\n-\t[ ] dash tab\r\n\t- [ ] nested by tab\r\n',
    'repeated identical tasks': '- [ ] x\n- [ ] x\n\n> - [ ] x\n\n- [ ] x\n  - [ ] x\n',
    'a task in a footnote renders last': 'Note[^n]\n\n[^n]: the note\n\n    - [ ] in the footnote\n\n- [ ] in the text\n',
    'setext headings and thematic breaks': '- [ ] a\n---\n\n* [x] b\n***\nTitle\n=====\n+ [ ] c\n',
  } as const;
  const checkboxes = (text: string) => [...markdownToHtml(text, 'MARK').matchAll(/data-task="MARK"( checked="")?/g)].map((box) => Boolean(box[1]));

  it.each(Object.entries(TRICKY))('agrees with the renderer: %s', (_name, tricky) => {
    const before = checkboxes(tricky);
    expect(before.length).toBeGreaterThan(0);
    expect(taskOffsets(tricky)).toHaveLength(before.length);
    before.forEach((checked, index) => {
      const toggled = toggleTask(tricky, index, !checked);
      expect(toggled, `task ${index}`).not.toBe(tricky);
      expect(checkboxes(toggled), `task ${index}`).toEqual(before.map((was, at) => (at === index ? !was : was)));
    });
  });

  it('counts the tasks it was written for', () => {
    const counts = Object.fromEntries(Object.entries(TRICKY).map(([name, tricky]) => [name, taskOffsets(tricky).length]));
    expect(counts).toEqual({
      'a fence holding the same text as a later task': 2,
      'a tilde fence and an indented code block': 1,
      'a fence inside a list item': 2,
      'nested lists, deeper and back': 6,
      'block quotes, nested, with lazy lines': 4,
      'a list inside a quote inside a list': 4,
      'loose items with paragraphs': 3,
      'ordered lists with both delimiters': 4,
      'boxes that are no tasks': 1,
      'tables and headings between tasks': 2,
      'tabs and CRLF inside quotes and lists': 4,
      'repeated identical tasks': 5,
      'a task in a footnote renders last': 2,
      'setext headings and thematic breaks': 3,
    });
  });

  it('finds the footnote\'s task after the text\'s, as rendered', () => {
    const tricky = TRICKY['a task in a footnote renders last'];
    expect(toggleTask(tricky, 0, true)).toBe(tricky.replace('- [ ] in the text', '- [x] in the text'));
    expect(toggleTask(tricky, 1, true)).toBe(tricky.replace('- [ ] in the footnote', '- [x] in the footnote'));
  });
});

describe('findReferences', () => {
  it('finds issues, merge requests, users and labels', () => {
    expect(findReferences('Fixes #12, see !3 by @maya.chen about ~bug and ~"needs review" or ~priority::high.')).toEqual([
      { index: 6, text: '#12', reference: { type: 'issue', iid: 12 } },
      { index: 15, text: '!3', reference: { type: 'merge_request', iid: 3 } },
      { index: 21, text: '@maya.chen', reference: { type: 'user', username: 'maya.chen' } },
      { index: 38, text: '~bug', reference: { type: 'label', name: 'bug' } },
      { index: 47, text: '~"needs review"', reference: { type: 'label', name: 'needs review' } },
      { index: 66, text: '~priority::high', reference: { type: 'label', name: 'priority::high' } },
    ]);
  });

  it('takes no part of a word, an address or a path for a reference', () => {
    expect(findReferences('mail ops@example.com, issue#4, /path/#5, C#7, wow!2, a~b')).toEqual([]);
    expect(findReferences('(@root)')).toEqual([{ index: 1, text: '@root', reference: { type: 'user', username: 'root' } }]);
  });
});

describe('allowedLinkHref', () => {
  const base = 'https://gitlab.example.com';

  it('follows http(s) and mailto, resolving relative links at the instance', () => {
    expect(allowedLinkHref('https://example.org/a b', base)).toBe('https://example.org/a%20b');
    expect(allowedLinkHref('mailto:ops@example.com', base)).toBe('mailto:ops@example.com');
    expect(allowedLinkHref('/group/project/-/wikis/home', base)).toBe('https://gitlab.example.com/group/project/-/wikis/home');
    expect(allowedLinkHref('#user-content-fn-1', base)).toBe('#user-content-fn-1');
  });

  it('refuses every other scheme, however it is disguised', () => {
    for (const href of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,<script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://example.org', '']) {
      expect(allowedLinkHref(href, base), href).toBeNull();
    }
  });
});

describe('allowedImageSource', () => {
  it('shows images of the instance only', () => {
    const base = 'https://gitlab.example.com';
    expect(allowedImageSource('/uploads/abc/shot.png', base)).toBe('https://gitlab.example.com/uploads/abc/shot.png');
    expect(allowedImageSource('https://gitlab.example.com/a.png', base)).toBe('https://gitlab.example.com/a.png');
    for (const src of ['https://tracker.example.net/pixel.gif', 'http://gitlab.example.com/a.png', '//evil.example/a.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', '']) {
      expect(allowedImageSource(src, base), src).toBeNull();
    }
  });
});
