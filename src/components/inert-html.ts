import type { Config, DOMPurify } from 'dompurify';

type Policy = NonNullable<Config['TRUSTED_TYPES_POLICY']>;
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createHTML(input: string): string; createScriptURL(input: string): string }): Policy;
}

// The one Trusted Types policy the console's CSP lets code create (`trusted-types markdown`,
// server/security.ts). Markup it vouches for only ever reaches a document that runs nothing:
// DOMPurify's parse of what it then cleans. It stays private to this module; what leaves it is a
// cleaned fragment, never markup.
const policy = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes?.createPolicy('markdown', {
  createHTML: (markup) => markup,
  createScriptURL: () => {
    throw new TypeError('Markdown makes no script URL');
  },
});

/** DOMPurify's fragment of `html`, parsed through the policy where the browser enforces Trusted Types. */
export function sanitizeInert(purify: DOMPurify, html: string, config: Config & { RETURN_DOM_FRAGMENT: true }): DocumentFragment {
  return purify.sanitize(html, policy ? { ...config, TRUSTED_TYPES_POLICY: policy } : config);
}
