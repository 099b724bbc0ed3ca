import { expiryFigures } from './expiry.ts';
import { commitHookFigures, fleetFigures } from './fleet.ts';
import { blameFigures } from './blame.ts';
import { historyFigures } from './history.ts';
import { bundleFigures } from './bundle.ts';
import { clickFigures } from './click.ts';
import { approveFigures } from './approve.ts';
import { coldFigures } from './cold.ts';
import { markdownFigures } from './markdown.ts';
import { boardFigures } from './board.ts';
import { mergeRequestBoardFigures } from './merge-request-board.ts';
import { issueDetailFigures } from './issue-detail.ts';
import { mergeRequestChangesFigures } from './merge-request-changes.ts';
import { pipelineDetailFigures } from './jobs.ts';
import { registryPreviewFigures } from './registry.ts';
import { alertsTesterFigures } from './alerts-tester.ts';
import { dialogFigures } from './dialog.ts';

/**
 * The console's parts of the bench, by name (`npm run bench -- --only <prefix>` runs the parts
 * whose name starts with it): bundle sizes, clicks on loopback (bench/click.ts), cold deep links
 * on a slow link (bench/cold.ts), the screens with figures of their own, and Markdown (bench/markdown.ts).
 */
export const CONSOLE_PARTS: ReadonlyArray<readonly [string, () => void | Promise<void>]> = [
  ['console.bundle', bundleFigures],
  ['console.click', () => clickFigures()],
  // the list of the demo's 5,000 pipelines, by the click figures' method
  ['console.pipelines_list', () => clickFigures(['pipelines'])],
  // the list of the demo's 5,000 packages (first row overhead against a raw fetch), by the same method
  ['console.packages_list', () => clickFigures(['packages'])],
  // the list of the demo's 10,000 alerts (GraphQL), by the same method
  ['console.alerts_list', () => clickFigures(['alerts'])],
  ['console.approve', approveFigures],
  // a dialog's first opening: the press to its title painted
  ['console.dialog_open', dialogFigures],
  ['console.cold', coldFigures],
  ['console.expiry', expiryFigures],
  ['console.fleet', fleetFigures],
  ['sandbox.commits', commitHookFigures],
  ['console.history', historyFigures],
  ['console.blame', blameFigures],
  ['console.markdown', markdownFigures],
  ['console.board', boardFigures],
  ['console.issue_timeline', issueDetailFigures],
  ['console.merge_request_board', mergeRequestBoardFigures],
  ['console.merge_request_changes', mergeRequestChangesFigures],
  ['console.pipeline_detail', pipelineDetailFigures],
  // the 10,000-tag image: its first page of tags by the click figures' method, and the bulk delete's preview per keystroke
  ['console.registry_tags', () => clickFigures(['registry_tags'])],
  ['console.registry_preview', registryPreviewFigures],
  // the alert tester's preview per keystroke into a 100 KB payload
  ['console.alerts_tester', alertsTesterFigures],
];
