import { Fragment } from 'react';

// after these, a line may break: the joints of addresses, paths and identifiers
const JOINTS = /(?<=[@./_-])/;
const SHORT = 16;

/**
 * Text without spaces (an email, an identity, a path), with a line-break opportunity after each
 * joint, so a table column can narrow at "@" or "." rather than push the row's actions out of view.
 */
export function BreakableText({ text }: { text: string }) {
  // a short one fits any column: no break opportunities to add (a list of usernames had 133 of them)
  if (text.length <= SHORT) return <span className="breakable--short">{text}</span>;
  const parts = text.split(JOINTS);
  return (
    <span className="breakable breakable--joints">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
