/** The screen a caller who may not manage storage moves gets instead: the title and why. */
export function MovesRefused({ title, reason }: { title: string; reason: string }) {
  return (
    <section className="screen" aria-labelledby="storage-moves-heading">
      <header className="screen__header">
        <h1 id="storage-moves-heading">{title}</h1>
      </header>
      <p className="notice" role="note">
        {reason}
      </p>
    </section>
  );
}
