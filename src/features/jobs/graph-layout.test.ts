import { describe, expect, it } from 'vitest';
import { GRAPH, layoutGraph, stageOrder } from './graph-layout.ts';

const jobs = [
  { id: 5, name: 'test 10', stage: 'test', needs: ['build'] },
  { id: 4, name: 'test 2', stage: 'test', needs: ['build', 'lint'] },
  { id: 1, name: 'build', stage: 'build' },
  { id: 2, name: 'lint', stage: 'build' },
  { id: 9, name: 'deploy', stage: 'deploy', needs: ['test 2', 'missing'] },
  { id: 8, name: 'report', stage: 'test', needs: ['test 2'] },
];

describe('layoutGraph', () => {
  const layout = layoutGraph(jobs);

  it('orders stages as the pipeline created them and jobs by name, numbers as numbers', () => {
    expect(stageOrder(jobs)).toEqual(['build', 'test', 'deploy']);
    expect(layout.columns.map((column) => [column.stage, column.jobs.map((place) => place.job.name)])).toEqual([
      ['build', ['build', 'lint']],
      ['test', ['report', 'test 2', 'test 10']],
      ['deploy', ['deploy']],
    ]);
  });

  it('places boxes on a grid and sizes the graph to hold them', () => {
    const lint = layout.columns[0].jobs[1];
    expect([lint.x, lint.y]).toEqual([0, GRAPH.headerHeight + GRAPH.jobHeight + GRAPH.jobGap]);
    expect(layout.columns[2].jobs[0].x).toBe(2 * (GRAPH.columnWidth + GRAPH.columnGap));
    expect(layout.height).toBe(GRAPH.headerHeight + 3 * (GRAPH.jobHeight + GRAPH.jobGap));
  });

  it('draws one link per known need, from the needed job to the one needing it', () => {
    expect(layout.links.map((link) => [link.from, link.to])).toEqual([
      [4, 8],
      [1, 4],
      [2, 4],
      [1, 5],
      [4, 9],
    ]);
    const [, buildToTest] = layout.links;
    // starts at build's right edge, ends at test 2's left edge, both at mid height
    expect(buildToTest.path).toMatch(
      new RegExp(
        `^M${GRAPH.columnWidth} ${GRAPH.headerHeight + GRAPH.jobHeight / 2}C.* ${GRAPH.columnWidth + GRAPH.columnGap} ${GRAPH.headerHeight + GRAPH.jobHeight + GRAPH.jobGap + GRAPH.jobHeight / 2}$`,
      ),
    );
  });

  it('loops a need within a stage out on the right side', () => {
    const sameStage = layout.links[0].path;
    const right = GRAPH.columnWidth + GRAPH.columnGap + GRAPH.columnWidth;
    expect(sameStage.startsWith(`M${right} `)).toBe(true);
    expect(sameStage.endsWith(` ${right} ${GRAPH.headerHeight + GRAPH.jobHeight / 2}`)).toBe(true);
  });

  it('lays out 200 jobs in 10 stages with their needs quickly', () => {
    const many = Array.from({ length: 200 }, (_, index) => ({
      id: index + 1,
      name: `job ${index + 1}`,
      stage: `stage ${Math.floor(index / 20)}`,
      needs: index >= 20 ? [`job ${index - 19}`, `job ${index - 10}`] : [],
    }));
    const started = performance.now();
    const big = layoutGraph(many);
    expect(performance.now() - started).toBeLessThan(100);
    expect(big.columns).toHaveLength(10);
    expect(big.links.length).toBe(360);
  });

  it('is empty without jobs', () => {
    expect(layoutGraph([])).toEqual({ columns: [], links: [], width: 0, height: GRAPH.headerHeight });
  });
});
