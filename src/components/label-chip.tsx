import { labelScope, type LabelBasic } from '../api/labels.ts';

/** Only a `#rgb` / `#rrggbb` colour of the API reaches a style: anything else shows uncoloured. */
function safeColor(color: string | null | undefined): string | undefined {
  return color && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : undefined;
}

/**
 * An issue's label as the platform shows it: its colour, and a scoped label (`priority::high`)
 * as its scope and its value side by side. The name renders as text.
 */
export function LabelChip({ label }: { label: LabelBasic | string }) {
  const { name, color, text_color: textColor } = typeof label === 'string' ? { name: label, color: undefined, text_color: undefined } : label;
  const scoped = labelScope(name);
  const style = { backgroundColor: safeColor(color), color: safeColor(textColor) };
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
