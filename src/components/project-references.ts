import type { MarkdownReference, ReferenceContext } from './markdown.tsx';

/**
 * Console paths for references in a project's Markdown (an issue, a merge request, a note):
 * `#12` opens issue 12 of the same project, `!3` merge request 3, `@name` the people directory
 * searched for that name, `~label` the project's issues with that label.
 */
export function projectReferenceHref(projectId: number) {
  return (reference: MarkdownReference, _context: ReferenceContext): string | null => {
    switch (reference.type) {
      case 'issue':
        return `/projects/${projectId}/issues/${reference.iid}`;
      case 'merge_request':
        return `/projects/${projectId}/merge-requests/${reference.iid}`;
      case 'user':
        return `/users?search=${encodeURIComponent(reference.username)}`;
      case 'label':
        // the issue list's `label` filter (an array: the router writes search arrays as JSON)
        return `/projects/${projectId}/issues?label=${encodeURIComponent(JSON.stringify([reference.name]))}`;
    }
  };
}
