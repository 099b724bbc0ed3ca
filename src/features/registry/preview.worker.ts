/**
 * The bulk delete's and the cleanup policy's preview off the main thread: RE2 (re2js) over
 * 10,000 tag names takes longer than a frame on a slow machine, so a keystroke here never waits
 * for it. The tags come once; each change of the rules is planned against them and answered as
 * one reason code per tag (a transferred byte array), with the rules' errors and warnings.
 */
import { compileCleanupRules, planCleanup, type CleanupReason, type CleanupTag } from '../../lib/registry-cleanup.ts';
import { REASON_CODES, type PreviewRequest, type PreviewAnswer } from './preview-protocol.ts';

let tags: CleanupTag[] = [];
let tagsVersion = 0;

const codeOf = new Map<CleanupReason, number>(REASON_CODES.map((reason, code) => [reason, code]));

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const request = event.data;
  if (request.type === 'tags') {
    tags = request.tags;
    tagsVersion = request.version;
    return;
  }
  const started = performance.now();
  const compiled = compileCleanupRules(request.rules);
  if (!compiled.ok) {
    const answer: PreviewAnswer = { id: request.id, tagsVersion, errors: compiled.errors, warnings: compiled.warnings, reasons: null, deleted: 0, ms: performance.now() - started };
    self.postMessage(answer);
    return;
  }
  const decisions = planCleanup(tags, compiled.rules, request.now);
  const reasons = new Uint8Array(decisions.length);
  let deleted = 0;
  for (let index = 0; index < decisions.length; index++) {
    reasons[index] = codeOf.get(decisions[index].reason)!;
    if (decisions[index].deleted) deleted++;
  }
  const answer: PreviewAnswer = { id: request.id, tagsVersion, errors: {}, warnings: compiled.rules.warnings, reasons, deleted, ms: performance.now() - started };
  (self as unknown as Worker).postMessage(answer, [reasons.buffer]);
};
