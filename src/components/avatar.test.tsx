import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Avatar, cssUrl } from './avatar.tsx';

describe('Avatar', () => {
  it('draws an http(s) picture as the background of a hidden box', () => {
    const markup = renderToStaticMarkup(<Avatar url="https://gitlab.example.com/uploads/-/system/user/avatar/12/me.png?width=28" name="Maya Chen" />);
    expect(markup).toBe(
      '<span class="avatar" aria-hidden="true" style="width:28px;height:28px;background-image:url(&quot;https://gitlab.example.com/uploads/-/system/user/avatar/12/me.png?width=28&quot;)"></span>',
    );
  });

  it('loads nothing from a URL that is not http(s), and shows the initial instead', () => {
    for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'not a url', null]) {
      const markup = renderToStaticMarkup(<Avatar url={url} name="élodie Martin" size={24} />);
      expect(markup, String(url)).toBe('<span class="avatar avatar--blank" style="width:24px;height:24px" aria-hidden="true">É</span>');
    }
  });
});

describe('cssUrl', () => {
  it('keeps a URL inside its CSS string whatever it holds', () => {
    expect(cssUrl('https://x.example/a"b\\c')).toBe('url("https://x.example/a\\22 b\\5c c")');
    expect(cssUrl('https://x.example/a\nb')).toBe('url("https://x.example/a\\a b")');
  });
});
