import type { Config, DOMPurify } from 'dompurify';

type Policy = NonNullable<Config['TRUSTED_TYPES_POLICY']>;
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createHTML(input: string): string; createScriptURL(input: string): string }): Policy;
}

// The one Trusted Types policy the console's CSP lets code create (`trusted-types markdown`,
// server/security.ts). Markup it vouches for only ever reaches documents that run nothing
// (DOMParser's): DOMPurify's parse of what it then cleans, and the entity decoder's. It stays
// private to this module; what leaves it is a document or a cleaned fragment, never markup.
const policy = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes?.createPolicy('markdown', {
  createHTML: (markup) => markup,
  createScriptURL: () => {
    throw new TypeError('Markdown makes no script URL');
  },
});

/** `markup` parsed into a document that runs no script and loads nothing. */
export function parseInert(markup: string): Document {
  return new DOMParser().parseFromString((policy ? policy.createHTML(markup) : markup) as string, 'text/html');
}

/** DOMPurify's fragment of `html`, parsed through the policy where the browser enforces Trusted Types. */
export function sanitizeInert(purify: DOMPurify, html: string, config: Config & { RETURN_DOM_FRAGMENT: true }): DocumentFragment {
  return purify.sanitize(html, policy ? { ...config, TRUSTED_TYPES_POLICY: policy } : config);
}
