import { Fragment } from 'react';

// after these, a line may break: the joints of addresses, paths and identifiers
const JOINTS = /(?<=[@./_-])/;

/**
 * Text without spaces (an email, an identity, a path), with a line-break opportunity after each
 * joint, so a table column can narrow at "@" or "." rather than push the row's actions out of view.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(JOINTS);
  return (
    <span className="breakable">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
