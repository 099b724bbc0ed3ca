import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDuration } from '../../lib/duration.ts';
import type { DurationPoint } from './durations.ts';

const COLORS = { duration: '#4f46e5', queued: '#c2410c' };

/**
 * The canvas chart (uPlot, in this lazy chunk only): duration and queue time per pipeline over
 * creation time. The canvas is hidden from assistive technology: the summary and table say the same.
 */
export default function DurationsChart({ points }: { points: readonly DurationPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [points.map((point) => point.at), points.map((point) => point.duration), points.map((point) => point.queued)];
    // ticks under a second keep a decimal: "< 1s" on every small tick says nothing
    const seconds = (_chart: uPlot, values: number[]) => values.map((value) => (value > 0 && value < 1 ? `${value.toFixed(1)}s` : value === 0 ? '0s' : formatDuration(value)));
    const chart = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 280,
        series: [
          {},
          { label: 'Duration', stroke: COLORS.duration, width: 2, points: { show: true }, value: (_chart, value) => formatDuration(value) },
          { label: 'Queued', stroke: COLORS.queued, width: 2, dash: [6, 4], points: { show: true }, value: (_chart, value) => formatDuration(value) },
        ],
        axes: [{}, { values: seconds, size: 64 }],
        scales: { y: { range: (_chart, _min, max) => [0, Math.max(1, max) * 1.1] } },
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, element.clientWidth), height: 280 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points]);
  return <div ref={box} className="durations-chart" aria-hidden="true" />;
}
