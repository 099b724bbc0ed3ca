/**
 * A description as people write them in the tracker, repeated to `size` characters: headings,
 * emphasis, links, autolinks, references (`#12`, `!3`, `@user`, `~label`), task lists (nested),
 * ordered lists, tables, fenced code, block quotes with raw HTML, images and thematic breaks.
 * Shared by the parser's unit test and the bench, so both read the same text.
 */
export function realisticDescription(size = 100_000, variant = 0): string {
  const block = [
    '## Step {n}: the rollout', '',
    'Some **bold** text with a [link](https://example.org/{n}), `code`, #{n}, !{n} and @maya and ~"workflow::doing". See www.example.com/{n} or https://ci.example.org/jobs/{n}.', '',
    '- [ ] task {n} for @root', '- [x] done {n}', '  - [ ] nested {n}', '1. first *emphasis*', '2. second ~~struck~~', '',
    '| col | value | owner |', '|-----|:-----:|------:|', '| a | {n} | @maya |', '| b | `x` | ~bug |', '',
    '```ts', 'export const value{n} = { id: {n}, name: "step" };', 'if (a < b && c > d) run();', '```', '',
    '> quoted <b>html</b> line', '> and _more_ text', '',
    '![shot](/uploads/abc/{n}.png) and <kbd>Ctrl</kbd> + <kbd>C</kbd>', '', '---', '',
  ].join('\n');
  let source = '';
  for (let n = 0; source.length < size; n++) source += block.replaceAll('{n}', String(n + variant));
  return source;
}
