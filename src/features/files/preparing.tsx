/** Shown while the caller's role and the branch's protection load: a form must not start from a guess. */
export function Preparing() {
  return (
    <p className="state" role="status">
      <span className="spinner" aria-hidden="true" /> Checking what you may change…
    </p>
  );
}
