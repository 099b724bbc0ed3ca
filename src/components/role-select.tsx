import type { ComponentProps } from 'react';
import { roleName } from '../api/members.ts';

/** A select of role values (spec 1, 2.7) by their names. */
export function RoleSelect({ roles, ...props }: { roles: readonly number[] } & ComponentProps<'select'>) {
  return (
    <select className="input" {...props}>
      {roles.map((value) => (
        <option key={value} value={value}>
          {roleName(value)}
        </option>
      ))}
    </select>
  );
}
