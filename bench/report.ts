/** The bench's output: figures as JSON lines on stdout, everything else on stderr. */

export interface Figure {
  name: string;
  value: number;
  unit: 'ms' | 'req/s' | 'count' | 'KB' | 'ratio' | 'frames' | 'pipelines/s';
  /** The goal for this figure, beside it. */
  goal?: number;
  /** The lowest the figure can be on this machine (measured), where that is above the goal. */
  floor?: number;
}

export function emit(figure: Figure): void {
  if (figure.goal === undefined) delete figure.goal;
  if (figure.floor === undefined) delete figure.floor;
  process.stdout.write(`${JSON.stringify(figure)}\n`);
}

export function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: readonly number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index];
}
