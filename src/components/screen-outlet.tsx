import { Outlet } from '@tanstack/react-router';

/**
 * A route's child route, in a box that takes the focus when the child is replaced and the pressed
 * link went with it (lib/screen-focus.ts): the box is found by the route's id.
 */
export function ScreenOutlet({ of }: { of: string }) {
  return (
    <div className="screen-outlet" data-outlet-of={of} tabIndex={-1}>
      <Outlet />
    </div>
  );
}
