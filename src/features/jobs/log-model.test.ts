import { describe, expect, it } from 'vitest';
import { initiallyCollapsed, lineText, LogStyler, parseLog, sectionsAround, visibleLines } from './log-model.ts';

const E = '\x1b';

// the shape of a real runner log: markers chained on a line, headers in colour, a nested section
const RUNNER_LOG = [
  `${E}[0KRunning with gitlab-runner 17.0.0`,
  `section_start:1700000000:prepare_executor\r${E}[0K${E}[0K${E}[36;1mPreparing the "docker" executor${E}[0;m`,
  `Using Docker executor`,
  `section_end:1700000003:prepare_executor\r${E}[0Ksection_start:1700000003:step_script[collapsed=true]\r${E}[0K${E}[0K${E}[36;1mExecuting "step_script" stage${E}[0;m`,
  `${E}[32;1m$ npm test${E}[0;m`,
  `section_start:1700000004:inner\r${E}[0KInner header`,
  `inner line`,
  `section_end:1700000010:inner\r${E}[0K`,
  `after inner`,
  `section_end:1700000065:step_script\r${E}[0K`,
  `${E}[32;1mJob succeeded${E}[0;m`,
  '',
].join('\n');

describe('parseLog', () => {
  const model = parseLog(RUNNER_LOG);

  it('drops marker-only lines and keeps the others in order', () => {
    const styler = new LogStyler(model.lines);
    const texts = model.lines.map((_, index) => lineText(styler.spans(index)));
    expect(texts).toEqual([
      'Running with gitlab-runner 17.0.0',
      'Preparing the "docker" executor',
      'Using Docker executor',
      'Executing "step_script" stage',
      '$ npm test',
      'Inner header',
      'inner line',
      'after inner',
      'Job succeeded',
    ]);
  });

  it('reads sections with their lines, nesting, durations and options', () => {
    expect(model.sections.map(({ name, start, end, duration, depth, parent, collapsedByDefault }) => ({ name, start, end, duration, depth, parent, collapsedByDefault }))).toEqual([
      { name: 'prepare_executor', start: 1, end: 2, duration: 3, depth: 0, parent: null, collapsedByDefault: false },
      { name: 'step_script', start: 3, end: 7, duration: 62, depth: 0, parent: null, collapsedByDefault: true },
      { name: 'inner', start: 5, end: 6, duration: 6, depth: 1, parent: 1, collapsedByDefault: false },
    ]);
    expect(model.lines[3]).toMatchObject({ header: 1, section: null });
    expect(model.lines[5]).toMatchObject({ header: 2, section: 1 });
    expect(model.lines[6]).toMatchObject({ header: null, section: 2 });
    expect(model.lines[8]).toMatchObject({ header: null, section: null });
  });

  it('folds collapsed sections but keeps their headers', () => {
    expect(visibleLines(model, new Set())).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(visibleLines(model, initiallyCollapsed(model))).toEqual([0, 1, 2, 3, 8]);
    expect(visibleLines(model, new Set([2]))).toEqual([0, 1, 2, 3, 4, 5, 7, 8]);
    expect(visibleLines(model, new Set([0, 2]))).toEqual([0, 1, 3, 4, 5, 7, 8]);
  });

  it('names the sections to open to show a line', () => {
    expect(sectionsAround(model, 6)).toEqual([1, 2]);
    expect(sectionsAround(model, 5)).toEqual([1]);
    expect(sectionsAround(model, 0)).toEqual([]);
  });

  it('keeps a section open while the job runs, growing with the log', () => {
    const running = parseLog(`section_start:1700000000:build\r${E}[0KBuilding\nstep 1\nstep 2`);
    expect(running.sections[0]).toMatchObject({ start: 0, end: 2, endedAt: null, duration: null });
  });

  it('ignores an end without its start, and closes sections left open inside an ended one', () => {
    const log = parseLog(['section_end:5:ghost\r', 'section_start:1:outer\rOuter', 'section_start:2:left_open\rLeft', 'x', 'section_end:9:outer\r', 'tail'].join('\n'));
    expect(log.lines.map((line) => line.raw)).toEqual(['Outer', 'Left', 'x', 'tail']);
    expect(log.sections.map(({ name, end, duration }) => ({ name, end, duration }))).toEqual([
      { name: 'outer', end: 2, duration: 8 },
      { name: 'left_open', end: 2, duration: 7 },
    ]);
  });

  it('shows what a carriage return left, with the colour set before it', () => {
    const log = parseLog(`Downloading 10%\rDownloading 50%\rDownloading 100%\r\n${E}[31mred\rfailed`);
    const styler = new LogStyler(log.lines);
    expect(lineText(styler.spans(0))).toBe('Downloading 100%');
    expect(styler.spans(1)).toEqual([{ text: 'failed', className: 'log-fg-red' }]);
  });
});

describe('LogStyler', () => {
  const spansOf = (text: string) => {
    const log = parseLog(text);
    const styler = new LogStyler(log.lines);
    return log.lines.map((_, index) => styler.spans(index));
  };

  it('turns colours and decorations into classes and keeps HTML as text', () => {
    expect(spansOf(`${E}[1;31m<img src=x onerror=alert(1)>${E}[0m plain`)[0]).toEqual([
      { text: '<img src=x onerror=alert(1)>', className: 'log-fg-red log-bold' },
      { text: ' plain', className: '' },
    ]);
  });

  it('gives 256 and true colours as CSS colours and bright ones as classes', () => {
    expect(spansOf(`${E}[38;5;196ma${E}[38;5;9mb${E}[38;2;10;20;30mc${E}[48;5;244md`)[0]).toEqual([
      { text: 'a', className: '', style: { color: 'rgb(255, 0, 0)' } },
      { text: 'b', className: 'log-fg-bright-red' },
      { text: 'c', className: '', style: { color: 'rgb(10, 20, 30)' } },
      { text: 'd', className: '', style: { color: 'rgb(10, 20, 30)', backgroundColor: 'rgb(128, 128, 128)' } },
    ]);
  });

  it('carries a colour left on into the next lines until it is reset', () => {
    expect(spansOf(`${E}[32mgreen\nstill green\n${E}[0mplain\nplain too`)).toEqual([
      [{ text: 'green', className: 'log-fg-green' }],
      [{ text: 'still green', className: 'log-fg-green' }],
      [{ text: 'plain', className: '' }],
      [{ text: 'plain too', className: '' }],
    ]);
  });

  it('drops control characters and cursor codes', () => {
    expect(spansOf(`a\x07b${E}[2Ac${E}[?25l`)[0]).toEqual([{ text: 'abc', className: '' }]);
  });

  it('parses 100,000 lines of structure quickly and styles only what is asked', () => {
    const text = Array.from({ length: 100_000 }, (_, index) => `${E}[32;1m$ echo ${index}${E}[0;m some output`).join('\n');
    const started = performance.now();
    const log = parseLog(text);
    const styler = new LogStyler(log.lines);
    for (let index = 0; index < 60; index++) styler.spans(index);
    expect(log.lines).toHaveLength(100_000);
    expect(lineText(styler.spans(59))).toBe('$ echo 59 some output');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
