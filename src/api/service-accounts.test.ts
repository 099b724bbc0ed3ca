import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, messageFieldErrors } from './errors.ts';
import type { Connection } from './http.ts';
import {
  createAccountSchema, createAccountToken, createAccountTokenSchema, createServiceAccount, deleteServiceAccount,
  revokeAccountToken, rotateAccountToken, serviceAccountsQueries, updateAccountSchema, updateInstanceAccountSchema, updateServiceAccount,
} from './service-accounts.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';

const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('messageFieldErrors', () => {
  const fields = ['name', 'username', 'email'];

  it('puts the instance answer for a taken email on the email field, without the status prefix', () => {
    expect(messageFieldErrors('400 Bad request - Email has already been taken', fields)).toEqual({
      fieldErrors: { email: ['Email has already been taken'] },
      unplaced: [],
    });
  });

  it('splits Rails to_sentence lists of two and of three', () => {
    expect(messageFieldErrors('400 Bad request - Username has already been taken and Email has already been taken', fields).fieldErrors).toEqual({
      username: ['Username has already been taken'],
      email: ['Email has already been taken'],
    });
    expect(messageFieldErrors("Name can't be blank, Username is too long (maximum is 255 characters), and Email is invalid", fields).fieldErrors).toEqual({
      name: ["Name can't be blank"],
      username: ['Username is too long (maximum is 255 characters)'],
      email: ['Email is invalid'],
    });
  });

  it('keeps a clause whole when its own text has commas, "and" and full stops', () => {
    const username = "Username can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'";
    expect(messageFieldErrors(`${username}. Email has already been taken`, fields).fieldErrors).toEqual({
      username: [username],
      email: ['Email has already been taken'],
    });
  });

  it('reads multi-word fields such as expires_at (the 422 of a service account token)', () => {
    expect(messageFieldErrors('Expires at must be before 2027-01-01', ['name', 'expires_at']).fieldErrors).toEqual({ expires_at: ['Expires at must be before 2027-01-01'] });
  });

  it('does not take "Username" for "Name" and leaves what names no field unplaced', () => {
    expect(messageFieldErrors('Username has already been taken', ['name', 'email'])).toEqual({ fieldErrors: {}, unplaced: ['Username has already been taken'] });
    expect(messageFieldErrors('400 Bad request - User does not have permission to create a service account in this namespace.', fields)).toEqual({
      fieldErrors: {},
      unplaced: ['User does not have permission to create a service account in this namespace.'],
    });
  });
});

describe('service account forms use the API rules', () => {
  const messages = (schema: z.ZodMiniType, input: unknown) => z.safeParse(schema, input).error?.issues.map((issue) => issue.message) ?? [];

  it('lets every create field be empty (the platform generates them) but checks what is typed', () => {
    expect(z.parse(createAccountSchema, { name: ' ', username: '', email: '' })).toEqual({ name: '', username: '', email: '' });
    expect(messages(createAccountSchema, { name: 'CI', username: 'ci-bot.', email: 'not-an-address' })).toEqual([
      'Letters, digits, _, - and . only; not starting with - or . and not ending in ., -, _, .git or .atom',
      'Enter an email address, like name@example.com',
    ]);
    expect(messages(createAccountSchema, { name: 'CI', username: 'deploy.git', email: '' })).toHaveLength(1);
  });

  it('needs a name and a username to update', () => {
    expect(messages(updateAccountSchema, { name: '', username: '' })).toEqual(['Give the account a name', 'Give the account a username']);
    expect(z.safeParse(updateAccountSchema, { name: 'Deployer', username: 'deployer_2' }).success).toBe(true);
  });

  it('needs a valid email too to update an instance account', () => {
    expect(messages(updateInstanceAccountSchema, { name: 'Deployer', username: 'deployer', email: ' ' })).toEqual(['Give the account an email address']);
    expect(messages(updateInstanceAccountSchema, { name: 'Deployer', username: 'deployer', email: 'nope' })).toEqual(['Enter an email address, like name@example.com']);
    expect(z.parse(updateInstanceAccountSchema, { name: 'Deployer', username: 'deployer', email: ' ops@example.com ' })).toEqual({ name: 'Deployer', username: 'deployer', email: 'ops@example.com' });
  });

  it('takes a token without a role, with scopes and an expiry at most one year ahead', () => {
    expect(z.safeParse(createAccountTokenSchema, { name: 'ci', description: '', scopes: ['read_api'], expires_at: isoDay(30) }).success).toBe(true);
    expect(messages(createAccountTokenSchema, { name: 'ci', description: '', scopes: [], expires_at: isoDay(400) })).toEqual([
      'Choose at least one scope',
      expect.stringMatching(/^The expiry date can be at most one year ahead/),
    ]);
  });
});

describe('service accounts against the sandbox', () => {
  let sandbox: RunningSandbox;
  let connection: Connection;
  let groupId: number;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'empty' });
    connection = { instanceUrl: sandbox.url, token: sandbox.adminToken };
    const response = await fetch(`${sandbox.url}/api/v4/groups`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': sandbox.adminToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Machines', path: 'machines' }),
    });
    groupId = ((await response.json()) as { id: number }).id;
  });
  afterAll(() => sandbox.close());

  it('creates with generated defaults, leaving empty fields out of the request', async () => {
    const account = await createServiceAccount(connection, { scope: { group: groupId }, values: { name: '', username: '', email: '' } });
    expect(account.name).toBe('Service account user');
    expect(account.username).toMatch(new RegExp(`^service_account_group_${groupId}_`));
    const page = await serviceAccountsQueries.list(connection, { group: groupId }, { page: 1, per_page: 20, order_by: 'id', sort: 'desc' }).queryFn!({ signal: new AbortController().signal } as never);
    expect(page.items.map((item) => item.id)).toContain(account.id);
  });

  it('answers a taken email with a message that maps to the email field', async () => {
    await createServiceAccount(connection, { scope: 'instance', values: { name: 'First', username: 'first-sa', email: 'robots@example.com' } });
    const error = await createServiceAccount(connection, { scope: 'instance', values: { name: 'Second', username: 'second-sa', email: 'robots@example.com' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(messageFieldErrors((error as ApiError).message, ['name', 'username', 'email']).fieldErrors).toEqual({ email: ['Email has already been taken'] });
  });

  it('renames, and answers a taken username as a sentence naming the field', async () => {
    const one = await createServiceAccount(connection, { scope: { group: groupId }, values: { name: 'One', username: 'sa-one', email: '' } });
    await createServiceAccount(connection, { scope: { group: groupId }, values: { name: 'Two', username: 'sa-two', email: '' } });
    expect(await updateServiceAccount(connection, { scope: { group: groupId }, userId: one.id, values: { name: 'One renamed', username: 'sa-one-renamed' } })).toMatchObject({ name: 'One renamed', username: 'sa-one-renamed' });
    const error = (await updateServiceAccount(connection, { scope: { group: groupId }, userId: one.id, values: { name: 'One', username: 'sa-two' } }).catch((caught: unknown) => caught)) as ApiError;
    expect(messageFieldErrors(error.message, ['name', 'username']).fieldErrors).toEqual({ username: ['Username has already been taken'] });
  });

  it('updates an instance account through PATCH /service_accounts/:id, email included; a taken username maps to its field', async () => {
    const account = await createServiceAccount(connection, { scope: 'instance', values: { name: 'Mirror', username: 'mirror-sa', email: '' } });
    const saved = await updateServiceAccount(connection, { scope: 'instance', userId: account.id, values: { name: 'Mirror renamed', username: 'mirror-sa-2', email: 'mirror@example.com' } });
    expect(saved).toMatchObject({ id: account.id, name: 'Mirror renamed', username: 'mirror-sa-2', email: 'mirror@example.com' });
    const error = (await updateServiceAccount(connection, { scope: 'instance', userId: account.id, values: { name: 'Mirror', username: 'first-sa', email: 'mirror@example.com' } }).catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(400);
    expect(messageFieldErrors(error.message, ['name', 'username', 'email'])).toEqual({ fieldErrors: { username: ['Username has already been taken'] }, unplaced: [] });
  });

  it('deletes an instance account through DELETE /users/:id: 409 while it alone owns a group, then hard delete', async () => {
    const account = await createServiceAccount(connection, { scope: 'instance', values: { name: 'Lonely owner', username: 'lonely-owner', email: '' } });
    const { token } = await createAccountToken(connection, { scope: 'instance', userId: account.id, values: { name: 'api', description: '', scopes: ['api'], expires_at: isoDay(5) } });
    const headers = { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' };
    const owned = (await (await fetch(`${sandbox.url}/api/v4/groups`, { method: 'POST', headers, body: JSON.stringify({ name: 'Lonely land', path: 'lonely-land' }) })).json()) as { id: number };
    const refused = (await deleteServiceAccount(connection, { scope: 'instance', userId: account.id, hardDelete: false }).catch((caught: unknown) => caught)) as ApiError;
    expect(refused.status).toBe(409);
    expect(refused.message).toBe('User cannot be removed while is the sole-owner of a group');
    await deleteServiceAccount(connection, { scope: 'instance', userId: account.id, hardDelete: true });
    const admin = { 'PRIVATE-TOKEN': sandbox.adminToken };
    expect((await fetch(`${sandbox.url}/api/v4/groups/${owned.id}`, { headers: admin })).status).toBe(404);
    expect((await fetch(`${sandbox.url}/api/v4/users/${account.id}`, { headers: admin })).status).toBe(404);
  });

  it('creates, lists, rotates and revokes a group account token; a bad expiry names expires_at', async () => {
    const scope = { group: groupId };
    const account = await createServiceAccount(connection, { scope, values: { name: 'Deployer', username: 'deployer', email: '' } });
    const created = await createAccountToken(connection, { scope, userId: account.id, values: { name: 'deploy', description: '', scopes: ['read_api'], expires_at: isoDay(30) } });
    expect(created.token).toBeTruthy();
    const rotated = await rotateAccountToken(connection, { scope, userId: account.id, tokenId: created.id });
    expect(rotated.token).not.toBe(created.token);
    await revokeAccountToken(connection, { scope, userId: account.id, tokenId: rotated.id });
    const tokens = await serviceAccountsQueries.tokens(connection, scope, account.id, { page: 1, per_page: 20, sort: 'created_asc', search: '' }).queryFn!({ signal: new AbortController().signal } as never);
    expect(tokens.items.map((token) => [token.id, token.revoked])).toEqual([[created.id, true], [rotated.id, true]]);
    const error = (await createAccountToken(connection, { scope, userId: account.id, values: { name: 'far', description: '', scopes: ['api'], expires_at: isoDay(500) } }).catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(422);
    expect(Object.keys(messageFieldErrors(error.message, ['name', 'expires_at']).fieldErrors)).toEqual(['expires_at']);
  });

  it('goes through the personal access tokens API for an instance account', async () => {
    const account = await createServiceAccount(connection, { scope: 'instance', values: { name: 'Backup', username: 'backup-bot', email: '' } });
    const created = await createAccountToken(connection, { scope: 'instance', userId: account.id, values: { name: 'nightly', description: 'backups', scopes: ['read_repository'], expires_at: isoDay(10) } });
    const rotated = await rotateAccountToken(connection, { scope: 'instance', userId: account.id, tokenId: created.id, expiresAt: isoDay(20) });
    expect(rotated.expires_at).toBe(isoDay(20));
    const tokens = await serviceAccountsQueries.tokens(connection, 'instance', account.id, { page: 1, per_page: 20, state: 'active', search: '' }).queryFn!({ signal: new AbortController().signal } as never);
    expect(tokens.items.map((token) => token.id)).toEqual([rotated.id]);
    await revokeAccountToken(connection, { scope: 'instance', userId: account.id, tokenId: rotated.id });
  });

  it('refuses to delete a sole Owner without hard delete (409), and hard-deletes', async () => {
    const scope = { group: groupId };
    const account = await createServiceAccount(connection, { scope, values: { name: 'Owner bot', username: 'owner-bot', email: '' } });
    // a group the account creates with its own token has it as its only Owner
    const { token } = await createAccountToken(connection, { scope, userId: account.id, values: { name: 'api', description: '', scopes: ['api'], expires_at: isoDay(5) } });
    const headers = { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' };
    const owned = (await (await fetch(`${sandbox.url}/api/v4/groups`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bot land', path: 'bot-land' }) })).json()) as { id: number };
    const refused = (await deleteServiceAccount(connection, { scope, userId: account.id, hardDelete: false }).catch((caught: unknown) => caught)) as ApiError;
    expect(refused.status).toBe(409);
    await deleteServiceAccount(connection, { scope, userId: account.id, hardDelete: true });
    expect((await fetch(`${sandbox.url}/api/v4/groups/${owned.id}`, { headers: { 'PRIVATE-TOKEN': sandbox.adminToken } })).status).toBe(404);
  });
});
