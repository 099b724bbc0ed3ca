import type { Sandbox } from '../context.ts';

export function seedDemo(_sandbox: Sandbox): void {}
