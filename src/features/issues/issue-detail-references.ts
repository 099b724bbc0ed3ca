import type { MarkdownReference, ReferenceContext } from '../../components/markdown.tsx';

/**
 * Console paths for references in an issue's text: `#12` opens issue 12 of the same project,
 * `@name` the people directory searched for that name, `~label` the project's issues with that
 * label. Merge requests have no screen in the console yet: they stay text.
 */
export function issueReferenceHref(projectId: number) {
  return (reference: MarkdownReference, _context: ReferenceContext): string | null => {
    switch (reference.type) {
      case 'issue':
        return `/projects/${projectId}/issues/${reference.iid}`;
      case 'user':
        return `/users?search=${encodeURIComponent(reference.username)}`;
      case 'label':
        // the issue list's `label` filter (an array: the router writes search arrays as JSON)
        return `/projects/${projectId}/issues?label=${encodeURIComponent(JSON.stringify([reference.name]))}`;
      default:
        return null;
    }
  };
}
