import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { formatDateTime } from '../lib/time.ts';
import { Time } from './time.tsx';

describe('Time', () => {
  it('gives a relative time the exact moment and zone on hover', () => {
    const value = '2026-11-25T09:14:00Z';
    const html = renderToStaticMarkup(<Time value={value} relative />);
    expect(html).toContain(`dateTime="${value}"`);
    expect(html).toContain(`title="${formatDateTime(value)}"`);
  });

  it('shows an absolute time with its zone, and the fallback when there is none', () => {
    const html = renderToStaticMarkup(<Time value="2026-11-25T09:14:00Z" />);
    expect(html).toMatch(/>[^<]*UTC([+-]\d+(:\d\d)?)?<\/time>$/);
    expect(html).not.toContain('title=');
    expect(renderToStaticMarkup(<Time value={null} fallback="Never" />)).toBe('<span class="muted">Never</span>');
  });
});
