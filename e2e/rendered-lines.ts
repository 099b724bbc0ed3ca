/**
 * The text of `element` as the lines it is laid out in, read character by character (run in the
 * page with `locator.evaluate(renderedLines)`): a test can say where a name breaks.
 */
export function renderedLines(element: Element): string[] {
  const lines: string[] = [];
  let lastTop: number | null = null;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const text = walker.currentNode as Text;
    for (let index = 0; index < text.length; index++) {
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      const top = range.getBoundingClientRect().top;
      if (lastTop === null || top > lastTop + 2) lines.push('');
      lastTop = top;
      lines[lines.length - 1] += text.data[index];
    }
  }
  return lines;
}
