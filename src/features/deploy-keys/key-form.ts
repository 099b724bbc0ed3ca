import * as z from 'zod/mini';
import { sshKeyProblem } from './ssh-key.ts';

export const TITLE_MAX = 255;

const today = () => new Date().toISOString().slice(0, 10);

/** The Key model's rules, and the key checked as OpenSSH text before it is sent. */
export const deployKeyFormSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'Give the key a title, e.g. the machine or service using it.'), z.maxLength(TITLE_MAX, `At most ${TITLE_MAX} characters`)),
  key: z.string().check(z.refine((text) => sshKeyProblem(text) === null, { error: (issue) => sshKeyProblem(String(issue.input)) ?? 'Invalid key' })),
  can_push: z.boolean(),
  expires_at: z.string().check(
    z.refine((text) => text === '' || /^\d{4}-\d{2}-\d{2}$/.test(text), 'A date, or empty for no expiry'),
    z.refine((text) => text === '' || text > today(), 'The expiry date must be in the future'),
  ),
});
export type DeployKeyFormValues = z.output<typeof deployKeyFormSchema>;
export const EMPTY_DEPLOY_KEY_FORM: DeployKeyFormValues = { title: '', key: '', can_push: false, expires_at: '' };

export const editDeployKeyFormSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'The title cannot be empty.'), z.maxLength(TITLE_MAX, `At most ${TITLE_MAX} characters`)),
  can_push: z.boolean(),
});
export type EditDeployKeyFormValues = z.output<typeof editDeployKeyFormSchema>;
