import { useId } from 'react';

/** The screen a caller who may not use an area gets instead: its title and why. */
export function RefusedScreen({ title, reason }: { title: string; reason: string }) {
  const headingId = useId();
  return (
    <section className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{title}</h1>
      </header>
      <p className="notice" role="note">
        {reason}
      </p>
    </section>
  );
}
