/**
 * The console's Content-Security-Policy. `npm start` serves it same-origin with the API (the
 * sandbox or the --target proxy), so it connects only to itself; served from a static host, the
 * console talks to the instance typed on the connect screen ("direct mode"), so any https origin.
 */
export function contentSecurityPolicy(mode: 'same-origin' | 'direct', options: { instanceOrigin?: string } = {}): string {
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    // Radix's dialogs add a <style> element (react-remove-scroll), and React sets style props
    "style-src 'self' 'unsafe-inline'",
    // avatars come from the instance or gravatar; image previews and downloads are blob: URLs
    // (behind --target, the instance's own avatar URLs point at its origin, http or https)
    `img-src 'self' data: blob: https:${options.instanceOrigin ? ` ${options.instanceOrigin}` : ''}`,
    "font-src 'self'",
    mode === 'direct' ? "connect-src 'self' https:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // a meta tag cannot carry frame-ancestors: only the served header forbids framing
    ...(mode === 'same-origin' ? ["frame-ancestors 'none'"] : []),
    // no string reaches an HTML or script sink; the policies code may make are Markdown's, which
    // lets markup only into inert documents for DOMPurify (src/components/inert-html.ts), and the
    // registry preview's, which vouches for its own worker's URL only (features/registry/cleanup-preview.tsx)
    "require-trusted-types-for 'script'",
    'trusted-types markdown registry-preview',
  ];
  return directives.join('; ');
}

/** Headers of every answer of the served console (its page and its files, not the API's answers). */
export function securityHeaders(instanceOrigin?: string): Readonly<Record<string, string>> {
  return {
    'Content-Security-Policy': contentSecurityPolicy('same-origin', { instanceOrigin }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
