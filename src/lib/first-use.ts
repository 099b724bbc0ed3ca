/**
 * A value built on first use and kept: building every module's at load made a cold start pay for
 * values its screen never uses (the search schemas).
 */
export function onFirstUse<T>(build: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= build());
}
