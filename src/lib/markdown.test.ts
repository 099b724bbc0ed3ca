import { describe, expect, it } from 'vitest';
import { allowedImageSource, allowedLinkHref, findReferences, markdownToHtml, toggleTask, withoutEventHandlers } from './markdown.ts';

const html = (source: string) => markdownToHtml(source, 'MARK');

describe('markdownToHtml', () => {
  it('renders CommonMark and GFM: tables, strikethrough, autolinks, fenced code', () => {
    expect(html('# Title\n\nSome *em* and **strong**.')).toBe('<h1>Title</h1>\n<p>Some <em>em</em> and <strong>strong</strong>.</p>');
    expect(html('| a | b |\n|:--|--:|\n| 1 | 2 |')).toBe(
      '<table>\n<thead>\n<tr>\n<th align="left">a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align="left">1</td>\n<td align="right">2</td>\n</tr>\n</tbody>\n</table>',
    );
    expect(html('~~gone~~')).toBe('<p><del>gone</del></p>');
    expect(html('see www.example.com and https://example.org/a?b=1 or ops@example.com')).toBe(
      '<p>see <a href="http://www.example.com">www.example.com</a> and <a href="https://example.org/a?b=1">https://example.org/a?b=1</a> or <a href="mailto:ops@example.com">ops@example.com</a></p>',
    );
    expect(html('```ts\nconst a = 1 < 2;\n```')).toBe('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>');
  });

  it('decodes entities in text and keeps unknown ones as written', () => {
    expect(html('&copy; &amp; &notanentity; &#x41;')).toBe('<p>© &amp; &amp;notanentity; A</p>');
  });

  it('marks task checkboxes with the caller\'s mark, checked or not', () => {
    expect(html('- [ ] open\n- [x] done')).toBe(
      '<ul>\n<li><input type="checkbox" data-task="MARK" /> open</li>\n<li><input type="checkbox" data-task="MARK" checked="" /> done</li>\n</ul>',
    );
  });

  it('passes raw HTML on for the sanitizer, without event handlers', () => {
    expect(html('<details open><summary>More</summary>\n\nHidden\n\n</details>')).toBe('<details open><summary>More</summary>\n<p>Hidden</p>\n</details>');
    expect(html('a <img src="x" onerror="alert(1)"> b')).toBe('<p>a <img src="x" > b</p>');
  });
});

describe('a 100 KB description', () => {
  // printed, not asserted: the parser is superlinear in the number of block quotes and lists (see the report)
  it('is parsed and its HTML printed in a time worth watching', () => {
    const block = [
      '## Step {n}', '', 'Some **bold** text with a [link](https://example.org/{n}), `code`, #{n} and @maya and ~"workflow::doing".', '',
      '- [ ] task {n}', '- [x] done {n}', '', '| col | value |', '|-----|-------|', '| a | {n} |', '',
      '```ts', 'export const value{n} = { id: {n}, name: "step" };', '```', '', '> quoted <b>html</b> line', '',
    ].join('\n');
    let source = '';
    for (let n = 0; source.length < 100_000; n++) source += block.replaceAll('{n}', String(n));
    const started = performance.now();
    const output = markdownToHtml(source, 'MARK');
    console.log(`Markdown: ${Math.round(source.length / 1000)} KB parsed to ${Math.round(output.length / 1000)} KB of HTML in ${Math.round(performance.now() - started)} ms`);
    expect(output.split('data-task="MARK"').length - 1).toBe(2 * source.split('- [ ] task').length - 2);
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
