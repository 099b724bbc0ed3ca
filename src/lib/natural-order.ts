const PARTS = /(\d+)/;

/**
 * "test 2" before "test 10": names compared by their runs of digits as numbers and the rest as
 * text, without Intl.Collator (whose first use loads the locale data inside a first render).
 */
export function compareNatural(a: string, b: string): number {
  const left = a.split(PARTS);
  const right = b.split(PARTS);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index];
    const y = right[index];
    if (x === y) continue;
    // split with a capture group puts the digit runs at the odd indexes
    if (index % 2 === 1) return Number(x) - Number(y) || x.length - y.length;
    const lower = x.toLowerCase() < y.toLowerCase() ? -1 : x.toLowerCase() > y.toLowerCase() ? 1 : 0;
    return lower || (x < y ? -1 : 1);
  }
  return left.length - right.length;
}
