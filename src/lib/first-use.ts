/**
 * A value built on first use and kept. For Intl formatters: building one costs far more than using
 * it, and building every module's at load made a cold start pay for formatters its screen never uses.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= build());
}
