/** The screen a caller who may not see system hooks gets instead: the title and why. */
export function HooksRefused({ title, reason }: { title: string; reason: string }) {
  return (
    <section className="screen" aria-labelledby="system-hooks-heading">
      <header className="screen__header">
        <h1 id="system-hooks-heading">{title}</h1>
      </header>
      <p className="notice" role="note">
        {reason}
      </p>
    </section>
  );
}
