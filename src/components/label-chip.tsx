import { labelScope, type LabelBasic } from '../api/labels.ts';

/** Only a `#rgb` / `#rrggbb` colour of the API reaches a style: anything else shows uncoloured. */
function safeColor(color: string | null | undefined): string | undefined {
  return color && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : undefined;
}

function luminance(hex: string): number {
  const full = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (digit) => digit + digit) : hex;
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(full.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Black or white, whichever reads better on the label's colour (WCAG contrast): the platform's
 * own `text_color` is white on many mid tones that fail the 4.5:1 ratio.
 */
export function labelTextColor(background: string): string {
  const light = luminance(background);
  return (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) ? '#000000' : '#ffffff';
}

/**
 * An issue's label as the platform shows it: its colour, and a scoped label (`priority::high`)
 * as its scope and its value side by side. The name renders as text.
 */
export function LabelChip({ label }: { label: LabelBasic | string }) {
  const { name, color } = typeof label === 'string' ? { name: label, color: undefined } : label;
  const scoped = labelScope(name);
  const background = safeColor(color);
  const style = background ? { backgroundColor: background, color: labelTextColor(background) } : undefined;
  if (!scoped) {
    return (
      <span className="label-chip" style={style} title={typeof label === 'string' ? undefined : (label.description ?? undefined)}>
        {name}
      </span>
    );
  }
  return (
    <span className="label-chip label-chip--scoped" aria-label={`${scoped.scope}: ${scoped.value}`} title={name}>
      <span className="label-chip__scope" style={style}>
        {scoped.scope}
      </span>
      <span className="label-chip__value">{scoped.value}</span>
    </span>
  );
}

/** A row's labels as a list named after the row (`Labels of !44`); nothing when there are none. */
export function LabelChipList({ labels, name }: { labels: ReadonlyArray<LabelBasic | string>; name: string }) {
  if (!labels.length) return null;
  return (
    <ul className="chip-list" aria-label={`Labels of ${name}`}>
      {labels.map((label) => (
        <li key={typeof label === 'string' ? label : label.id}>
          <LabelChip label={label} />
        </li>
      ))}
    </ul>
  );
}
