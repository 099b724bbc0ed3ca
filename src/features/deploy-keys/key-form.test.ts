import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EMPTY_DEPLOY_KEY_FORM, deployKeyFormSchema } from './key-form.ts';

const GOOD = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILkYXU2fVeO4/0rDCSsswP5iIX2+B6tv15YT3KObgyDl Key';
const issues = (values: Partial<typeof EMPTY_DEPLOY_KEY_FORM>) =>
  z.safeParse(deployKeyFormSchema, { ...EMPTY_DEPLOY_KEY_FORM, title: 'CI', key: GOOD, ...values }).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('the deploy key form', () => {
  it('accepts a titled valid key, with or without a future expiry', () => {
    expect(issues({})).toEqual([]);
    expect(issues({ expires_at: '2999-01-01' })).toEqual([]);
  });

  it('puts the key check’s reason on the key field', () => {
    expect(issues({ key: 'ssh-dss AAAA' })).toEqual(['key: “ssh-dss” is not a key type the platform accepts. The key must start with ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521, sk-ssh-ed25519@openssh.com or sk-ecdsa-sha2-nistp256@openssh.com.']);
  });

  it('wants a title and a future expiry date', () => {
    expect(issues({ title: '  ' })).toEqual(['title: Give the key a title, e.g. the machine or service using it.']);
    expect(issues({ title: 'x'.repeat(256) })).toEqual(['title: At most 255 characters']);
    expect(issues({ expires_at: '2000-01-01' })).toEqual(['expires_at: The expiry date must be in the future']);
  });
});
