import { useState } from 'react';

import { chunk, useChunk, usePreloadWhenIdle } from '../../components/lazy-part.ts';
import { RefButton } from './ref-button.tsx';
import type { RefSwitcherProps } from './ref-popover.tsx';

// the popover, its positioning and focus handling are a third of a file screen's code: they load
// once the screen is idle, or on the first press, and the screen's first rows do not wait for them
const loadPopover = chunk(() => import('./ref-popover.tsx'));

/** Chooses the branch, tag or commit a screen shows: a filtered list of each, or a sha typed in. */
export function RefSwitcher(props: RefSwitcherProps) {
  const [used, setUsed] = useState(false);
  usePreloadWhenIdle(loadPopover, true);
  const popover = useChunk(loadPopover, used);
  return used && popover ? <popover.default {...props} /> : <RefButton gitRef={props.gitRef} aria-expanded={used} onClick={() => setUsed(true)} />;
}
