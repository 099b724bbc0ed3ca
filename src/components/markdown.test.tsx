// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { JSDOM } from 'jsdom';
import type { MarkdownReference } from '../lib/markdown.ts';
import { Markdown } from './markdown.tsx';
import { renderMarkdown, type RenderContext } from './markdown-render.ts';

const INSTANCE = 'https://gitlab.example.com';
const linkTo = (reference: MarkdownReference): string | null => {
  switch (reference.type) {
    case 'issue': return `/projects/7/issues/${reference.iid}`;
    case 'merge_request': return null;
    case 'user': return `/users/?search=${encodeURIComponent(reference.username)}`;
    case 'label': return `/projects/7/issues?label_name=${encodeURIComponent(reference.name)}`;
  }
};
const CONTEXT: RenderContext = { instanceUrl: INSTANCE, consoleOrigin: 'https://console.example.com', referenceHref: linkTo, tasksEditable: false };

function rendered(source: string, context: Partial<RenderContext> = {}): HTMLElement {
  const element = document.createElement('div');
  element.append(renderMarkdown(source, { ...CONTEXT, ...context }));
  return element;
}

describe('renderMarkdown', () => {
  it('links references in text, but not in code or links, and not those the caller cannot place', () => {
    const element = rendered('Fixes #12 for @maya with ~"needs review", not !3.\n\n`#13` [#14](https://example.org)\n\n    #15');
    expect([...element.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['#12', '/projects/7/issues/12'],
      ['@maya', '/users/?search=maya'],
      ['~"needs review"', '/projects/7/issues?label_name=needs%20review'],
      ['#14', 'https://example.org/'],
    ]);
    expect(element.textContent).toContain('not !3.');
  });

  it('refuses reference targets outside the console', () => {
    const element = rendered('#1 #2', { referenceHref: (reference) => (reference.type === 'issue' && reference.iid === 1 ? 'javascript:alert(1)' : '//evil.example/x') });
    expect(element.querySelectorAll('a')).toHaveLength(0);
    expect(element.textContent).toBe('#1 #2');
  });

  it('keeps links to http(s) and mailto, marks foreign ones, and leaves others as text', () => {
    const element = rendered('[ext](https://example.org) [same](https://console.example.com/users/) [mail](mailto:a@example.com) [js](javascript:alert(1)) [rel](/group/project)');
    const links = Object.fromEntries([...element.querySelectorAll('a')].map((link) => [link.textContent, { href: link.getAttribute('href'), rel: link.getAttribute('rel') }]));
    expect(links).toEqual({
      ext: { href: 'https://example.org/', rel: 'noopener noreferrer nofollow' },
      same: { href: 'https://console.example.com/users/', rel: null },
      mail: { href: 'mailto:a@example.com', rel: 'noopener noreferrer nofollow' },
      js: { href: null, rel: null },
      rel: { href: 'https://gitlab.example.com/group/project', rel: 'noopener noreferrer nofollow' },
    });
  });

  it('shows images from the instance only; others become their text', () => {
    const element = rendered('![shot](/uploads/a/shot.png) ![pixel](https://tracker.example.net/p.gif) ![](data:image/png;base64,AAAA)');
    expect([...element.querySelectorAll('img')].map((image) => image.getAttribute('src'))).toEqual(['https://gitlab.example.com/uploads/a/shot.png']);
    expect(element.textContent).toContain('pixel');
  });

  it('numbers and labels task checkboxes, drops checkboxes written as HTML, and keeps them read-only unless editable', () => {
    const source = '- [ ] write the **plan**\n  - [x] nested\n- [x] ship\n\n<input type="checkbox" data-task="0"> forged';
    const readOnly = rendered(source);
    const boxes = [...readOnly.querySelectorAll('input')];
    expect(boxes.map((box) => [box.dataset.task, box.getAttribute('aria-label'), box.checked, box.disabled])).toEqual([
      ['0', 'write the plan', false, true],
      ['1', 'nested', true, true],
      ['2', 'ship', true, true],
    ]);
    expect([...rendered(source, { tasksEditable: true }).querySelectorAll('input')].map((box) => box.disabled)).toEqual([false, false, false]);
  });

  it('renders GFM tables, strikethrough, footnotes and allowed raw HTML', () => {
    const element = rendered('| a |\n|---|\n| ~~b~~ |\n\nNote[^1] <kbd>Ctrl</kbd>\n\n[^1]: the note');
    expect(element.querySelector('td del')?.textContent).toBe('b');
    expect(element.querySelector('kbd')?.textContent).toBe('Ctrl');
    expect(element.querySelector('sup a')?.getAttribute('href')).toBe('#user-content-fn-1');
    expect(element.querySelector('section.footnotes li')?.id).toBe('user-content-fn-1');
  });
});

// Each string must execute nothing: rendered, then serialized and parsed again in a document that
// runs scripts and handlers, where every element gets the events a handler would wait for.
const XSS = [
  '<script>window.__xss = 1</script>',
  '<img src=x onerror="window.__xss = 1">',
  '<img/src=x/onerror=window.__xss=1//>',
  '<img src="x` `<script>window.__xss=1</script>"` `>',
  '<svg onload="window.__xss = 1"><circle r=1></circle></svg>',
  '<svg><script>window.__xss = 1</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=window.__xss=1>',
  '<svg></p><style><a id="</style><img src=1 onerror=window.__xss=1>">',
  '<a href="javascript:window.__xss=1">a</a>',
  '<a href="java&#x09;script:window.__xss=1">b</a>',
  '<a href="&#106;avascript:window.__xss=1">c</a>',
  '<a href=" JaVaScRiPt:window.__xss=1">d</a>',
  '[e](javascript:window.__xss=1)',
  '[f](<javascript:window.__xss=1>)',
  '[g][ref]\n\n[ref]: javascript:window.__xss=1',
  '<javascript:window.__xss=1>',
  '[h](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)',
  '[i](vbscript:msgbox(1))',
  '![j](javascript:window.__xss=1)',
  '![k](x" onerror="window.__xss=1)',
  '<iframe src="javascript:window.__xss=1"></iframe><iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '<object data="javascript:window.__xss=1"></object><embed src="javascript:window.__xss=1">',
  '<style>body { background: url("javascript:window.__xss=1") }</style><div style="background:url(javascript:window.__xss=1)">s</div>',
  '<details open ontoggle="window.__xss=1"><summary>t</summary></details>',
  '<input autofocus onfocus="window.__xss=1"><button onclick="window.__xss=1">u</button>',
  '<form action="javascript:window.__xss=1"><button formaction="javascript:window.__xss=1">v</button></form>',
  '<base href="javascript:window.__xss=1//"><meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '<a href="#" onclick="window.__xss=1" onmouseover="window.__xss=1">w</a>',
  '&lt;img src=x onerror=window.__xss=1&gt; &#60;script&#62;window.__xss=1&#60;/script&#62;',
  '<video><source onerror="window.__xss=1"></video><audio src=x onerror="window.__xss=1"></audio>',
  '<svg><a xlink:href="javascript:window.__xss=1"><text>x</text></a><animate attributeName="href" to="javascript:window.__xss=1"/></svg>',
  '<!--><img src=x onerror=window.__xss=1>-->',
  '<p title="<!--"><img src=x onerror="window.__xss=1">--></p>',
  '`<img onerror=window.__xss=1>` <code><img src=x onerror=window.__xss=1></code>',
  // entity-encoded and disguised schemes in every link syntax: inline, reference, autolink, raw HTML
  '[l1](javascript&colon;window.__xss=1) [l2](javascript&#58;window.__xss=1) [l3](&#x6A;avascript:window.__xss=1) [l4](JAVASCRIPT:window.__xss=1)',
  '[r1][a] [r2][b] [r3][c]\n\n[a]: javascript&colon;window.__xss=1\n[b]: <javascript:window.__xss=1> "t"\n[c]: data:text/html,<script>window.__xss=1</script>',
  '<vbscript:msgbox(1)> <data:text/html,<script>window.__xss=1</script>> <JavaScript:window.__xss=1> <javascript&colon;window.__xss=1>',
  '<a href="javascript&colon;window.__xss=1">m1</a> <a href="&#0000106&#0000097vascript:window.__xss=1">m2</a> <a href="jav&#x0A;ascript:window.__xss=1">m3</a>',
  '![i1](javascript&colon;window.__xss=1) ![i2][img]\n\n[img]: javascript:window.__xss=1',
  // attribute breaking through titles, languages, labels and autolink literals
  '[t1](https://example.org "\\" onmouseover=\\"window.__xss=1") ![t2](/a.png \'\\\' onerror=\\\'window.__xss=1\')',
  '```"><img src=x onerror=window.__xss=1>\ncode\n```',
  'Note[^"><img src=x onerror=window.__xss=1>]\n\n[^"><img src=x onerror=window.__xss=1>]: boom',
  'www.example.com/"onmouseover="window.__xss=1" https://example.org/<img/src/onerror=window.__xss=1>',
  // HTML inside GFM constructs
  '| <img src=x onerror=window.__xss=1> | <svg onload=window.__xss=1> |\n|---|---|\n| ~~<a href="javascript:window.__xss=1">x</a>~~ | <math><a href="javascript:window.__xss=1">y</a></math> |',
  '- [ ] <img src=x onerror=window.__xss=1> task\n- [x] <input type=checkbox onclick=window.__xss=1> forged',
  '# <img src=x onerror=window.__xss=1>\n\n> <svg><use href="data:image/svg+xml,<svg id=x xmlns=http://www.w3.org/2000/svg><image href=1 onerror=window.__xss=1 /></svg>#x" /></svg>',
  '<svg><foreignObject><img src=x onerror=window.__xss=1></foreignObject></svg><math><maction actiontype="statusline" xlink:href="javascript:window.__xss=1">z</maction></math>',
  '<img src=x onerror=window.__xss=1 <img src=x onload=window.__xss=1>',
  // a body of the user's: its attributes go to the body DOMPurify walks from, which never reaches the page
  '<body onload="window.__xss=1" background="javascript:window.__xss=1">x</body><svg><body onload=window.__xss=1></svg><p><body onpageshow=window.__xss=1>',
];
const EVENTS = ['error', 'load', 'click', 'focus', 'mouseover', 'toggle', 'animationstart', 'submit'];
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc', 'background', 'poster'];

function executed(html: string): unknown {
  const dom = new JSDOM('<!doctype html><body></body>', { runScripts: 'dangerously', url: 'https://console.example.com/' });
  dom.window.document.body.innerHTML = html;
  for (const element of dom.window.document.querySelectorAll('*')) for (const type of EVENTS) element.dispatchEvent(new dom.window.Event(type));
  const flag = (dom.window as unknown as { __xss?: unknown }).__xss;
  dom.window.close();
  return flag;
}

describe('the XSS corpus', () => {
  it('the harness notices a handler that runs', () => {
    expect(executed('<img src=x onerror="window.__xss = 1">')).toBe(1);
  });

  it.each(XSS)('%s executes nothing and leaves no handler or script URL', (source) => {
    const element = rendered(source);
    for (const node of element.querySelectorAll('*')) {
      expect(node.tagName).not.toMatch(/^(SCRIPT|STYLE|IFRAME|OBJECT|EMBED|SVG|MATH|FORM|BUTTON|BASE|META|VIDEO|AUDIO|SOURCE)$/i);
      for (const attribute of node.attributes) {
        expect(attribute.name).not.toMatch(/^on/i);
        if (URL_ATTRIBUTES.includes(attribute.name.toLowerCase())) expect(attribute.value).not.toMatch(/^\s*(javascript|data|vbscript):/i);
      }
    }
    expect(executed(element.innerHTML)).toBeUndefined();
  });
});

describe('Markdown', () => {
  let root: Root | null = null;
  let host: HTMLElement | null = null;
  afterEach(() => {
    act(() => root?.unmount());
    host?.remove();
  });

  async function mount(element: React.ReactElement): Promise<HTMLElement> {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    host = document.body.appendChild(document.createElement('div'));
    root = createRoot(host);
    await act(async () => root!.render(element));
    await vi.waitFor(() => expect(host!.querySelector('.markdown:not(.markdown--pending)')).not.toBeNull(), { timeout: 15_000 });
    return host;
  }

  it('loads lazily, then highlights code with the grammar it names', async () => {
    const view = await mount(<Markdown source={'```js\nconst answer = 42;\n```'} instanceUrl={INSTANCE} />);
    await vi.waitFor(() => expect(view.querySelector('code.hljs .hljs-keyword')?.textContent).toBe('const'), { timeout: 15_000 });
    expect(view.querySelector('code')?.textContent).toBe('const answer = 42;\n');
  });

  it('reports a task toggled by the user with its index, its state and the source with that box changed', async () => {
    const toggled = vi.fn(() => true);
    const view = await mount(<Markdown source={'- [ ] one\n- [x] two'} instanceUrl={INSTANCE} onToggleTask={toggled} references={{ context: { project: 'a/b' }, href: () => null }} />);
    const boxes = view.querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
    act(() => boxes[1].click());
    act(() => boxes[0].click());
    expect(toggled.mock.calls).toEqual([
      [1, false, '- [ ] one\n- [ ] two'],
      [0, true, '- [x] one\n- [x] two'],
    ]);
  });

  it('puts back a box whose change was not taken', async () => {
    const view = await mount(<Markdown source="- [ ] one" instanceUrl={INSTANCE} onToggleTask={() => false} references={{ context: { project: 'a/b' }, href: () => null }} />);
    const box = view.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    act(() => box.click());
    expect(box.checked).toBe(false);
  });

  it('marks the boxes busy while a tick is saved, on the text built again too, and keeps the focused box focused', async () => {
    const references = { context: { project: 'a/b' }, href: () => null };
    const view = await mount(<Markdown source={'- [ ] one\n- [ ] two'} instanceUrl={INSTANCE} onToggleTask={() => true} references={references} />);
    view.querySelectorAll<HTMLInputElement>('input[data-task]')[1].focus();
    await act(async () => root!.render(<Markdown source={'- [ ] one\n- [x] two'} instanceUrl={INSTANCE} onToggleTask={() => true} references={references} tasksBusy />));
    const boxes = [...view.querySelectorAll<HTMLInputElement>('input[data-task]')];
    expect(boxes.map((box) => box.getAttribute('aria-disabled'))).toEqual(['true', 'true']);
    expect(document.activeElement).toBe(boxes[1]);
    await act(async () => root!.render(<Markdown source={'- [ ] one\n- [x] two'} instanceUrl={INSTANCE} onToggleTask={() => true} references={references} />));
    expect(boxes.map((box) => box.hasAttribute('aria-disabled'))).toEqual([false, false]);
  });

  it('keeps task checkboxes read-only without a callback', async () => {
    const view = await mount(<Markdown source="- [ ] one" instanceUrl={INSTANCE} />);
    expect(view.querySelector('input')?.disabled).toBe(true);
  });
});
