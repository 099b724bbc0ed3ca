import type { Router } from '../http/route.ts';

export function registerMembers(_routes: Router): void {}
