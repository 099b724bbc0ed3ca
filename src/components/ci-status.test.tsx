import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { CiStatusBadge, ciStatusText } from './ci-status.tsx';

describe('CiStatusBadge', () => {
  it('says the status in words beside a decorative icon, with the platform tooltip on hover', () => {
    const html = renderToStaticMarkup(<CiStatusBadge status="success" tooltip="passed with warnings" />);
    expect(html).toContain('<span>Passed</span>');
    expect(html).toContain('aria-hidden="true"');
    expect(html).toContain('title="passed with warnings"');
  });

  it('words every status of the platform, and an unknown one as it came', () => {
    expect(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'].map(ciStatusText)).toEqual([
      'Created', 'Waiting for resource', 'Preparing', 'Pending', 'Running', 'Passed', 'Failed', 'Canceled', 'Skipped', 'Manual', 'Delayed',
    ]);
    expect(ciStatusText('some_new_state')).toBe('some new state');
  });

  it('draws a different shape for passed, failed, errored and running, so colour is not the only sign', () => {
    const shapes = ['success', 'failed', 'error', 'running'].map((status) => /<path d="([^"]+)"/.exec(renderToStaticMarkup(<CiStatusBadge status={status} />))![1]);
    expect(new Set(shapes).size).toBe(4);
  });

  it('words a test case that errored as an error, in the tone of a failure', () => {
    const html = renderToStaticMarkup(<CiStatusBadge status="error" />);
    expect(html).toContain('<span>Error</span>');
    expect(html).toContain('ci-status--danger');
  });
});
