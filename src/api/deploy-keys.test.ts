import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { request, type Connection } from './http.ts';
import { loose } from './schema.ts';
import {
  addInstanceDeployKey, addProjectDeployKey, deleteDeployKey, deployKeyFieldErrors, deployKeysQueries, enableDeployKey, projectDeployKeySchema, updateDeployKey,
} from './deploy-keys.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';

const DOC_RSA = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDNJAkI3Wdf0r13c8a5pEExB2YowPWCSVzfZV22pNBc1CuEbyYLHpUyaD0GwpGvFdx2aP7lMEk35k6Rz3ccBF6jRaVJyhsn5VNnW92PMpBJ/P1UebhXwsFHdQf5rTt082cSxWuk61kGWRQtk4ozt/J2DF/dIUVaLvc+z4HomT41fQ==';
const DOC_ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILkYXU2fVeO4/0rDCSsswP5iIX2+B6tv15YT3KObgyDl Key';
const run = <T>(options: { queryFn?: unknown }) => (options.queryFn as (context: { signal: AbortSignal }) => Promise<T>)({ signal: new AbortController().signal });

describe('deploy key error fields', () => {
  it('drops the deploy_key. prefix and puts fingerprint errors on the key', () => {
    const error = deployKeyFieldErrors(new ApiError(400, 'x', 'http', { 'deploy_key.key': ['is invalid'], 'deploy_key.fingerprint_sha256': ['cannot be generated'], 'deploy_key.title': ["can't be blank"] }));
    expect((error as ApiError).fieldErrors).toEqual({ key: ['is invalid'], title: ["can't be blank"] });
    const taken = deployKeyFieldErrors(new ApiError(400, 'x', 'http', { 'deploy_key.fingerprint_sha256': ['has already been taken'] }));
    expect((taken as ApiError).fieldErrors?.key[0]).toMatch(/already a deploy key elsewhere/);
  });

  it('reads a project key without the MD5 fingerprint (FIPS) and a null can_push', () => {
    expect(z.parse(projectDeployKeySchema, { id: 1, title: 't', fingerprint_sha256: 'SHA256:x', can_push: null })).toMatchObject({ can_push: false });
  });
});

describe('deploy keys against the sandbox', () => {
  let sandbox: RunningSandbox;
  let connection: Connection;
  let projectA: number;
  let projectB: number;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'empty' });
    connection = { instanceUrl: sandbox.url, token: sandbox.adminToken };
    const create = (name: string) => request(connection, '/projects', loose({ id: z.number() }), { method: 'POST', body: { name } });
    projectA = (await create('keys-a')).id;
    projectB = (await create('keys-b')).id;
  });
  afterAll(() => sandbox.close());

  it('adds a project key with both fingerprints, enables it elsewhere, edits and deletes it', async () => {
    const added = await addProjectDeployKey(connection, { projectId: projectA, values: { title: 'CI', key: `${DOC_RSA}\n`, can_push: true, expires_at: '' } });
    expect(added).toMatchObject({ title: 'CI', can_push: true, fingerprint: '4a:9d:64:15:ed:3a:e6:07:6e:89:36:b3:3b:03:05:d9', fingerprint_sha256: 'SHA256:Jrs3LD1Ji30xNLtTVf9NDCj7kkBgPBb2pjvTZ3HfIgU' });

    const enableable = await run<Array<{ id: number }>>(deployKeysQueries.enableable(connection, { userId: 1, isAdmin: true }));
    expect(enableable.map((key) => key.id)).toContain(added.id);
    await enableDeployKey(connection, { projectId: projectB, keyId: added.id });
    const onB = await run<{ items: Array<{ id: number; can_push: boolean }> }>(deployKeysQueries.project(connection, projectB, { page: 1, per_page: 20 }));
    expect(onB.items).toEqual([expect.objectContaining({ id: added.id, can_push: false })]);

    const instance = await run<{ items: Array<{ id: number; projects_with_write_access: Array<{ id: number }>; projects_with_readonly_access: Array<{ id: number }> }> }>(
      deployKeysQueries.instance(connection, { page: 1, per_page: 20 }),
    );
    const row = instance.items.find((key) => key.id === added.id)!;
    expect(row.projects_with_write_access.map((project) => project.id)).toEqual([projectA]);
    expect(row.projects_with_readonly_access.map((project) => project.id)).toEqual([projectB]);

    const updated = await updateDeployKey(connection, { projectId: projectB, keyId: added.id, changes: { title: 'CI (renamed)', can_push: true } });
    expect(updated).toMatchObject({ title: 'CI (renamed)', can_push: true });

    await deleteDeployKey(connection, { projectId: projectA, keyId: added.id });
    // still used by B: the key stays
    expect((await run<{ items: unknown[] }>(deployKeysQueries.project(connection, projectB, { page: 1, per_page: 20 }))).items).toHaveLength(1);
    await deleteDeployKey(connection, { projectId: projectB, keyId: added.id });
    const gone = await run<{ items: Array<{ id: number }> }>(deployKeysQueries.instance(connection, { page: 1, per_page: 20 }));
    expect(gone.items.map((key) => key.id)).not.toContain(added.id);
  });

  it('answers a malformed key with field errors the form can place', async () => {
    const error = await addProjectDeployKey(connection, { projectId: projectA, values: { title: '', key: 'ssh-rsa AAAA', can_push: false, expires_at: '' } }).catch((caught: unknown) => caught);
    expect((deployKeyFieldErrors(error) as ApiError).fieldErrors).toEqual({ key: ['is invalid'], title: ["can't be blank"] });
  });

  it('offers a non-administrator the keys of the projects they maintain, and nothing (not an error) when they maintain none', async () => {
    const makeUser = async (username: string) => {
      const user = await request(connection, '/users', loose({ id: z.number() }), { method: 'POST', body: { username, name: username, email: `${username}@example.com`, password: 'a-long-password-1', skip_confirmation: true } });
      const token = await request(connection, `/users/${user.id}/personal_access_tokens`, loose({ token: z.string() }), { method: 'POST', body: { name: 't', scopes: ['api'] } });
      return { id: user.id, connection: { instanceUrl: sandbox.url, token: token.token } };
    };
    const point = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
    const blob = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), point]);
    const keyOnA = await addProjectDeployKey(connection, { projectId: projectA, values: { title: 'On A', key: `ssh-ed25519 ${blob.toString('base64')}`, can_push: false, expires_at: '' } });
    const maintainer = await makeUser('keys-maintainer');
    await request(connection, `/projects/${projectA}/members`, loose({ id: z.number() }), { method: 'POST', body: { user_id: maintainer.id, access_level: 40 } });
    const offered = await run<Array<{ id: number }>>(deployKeysQueries.enableable(maintainer.connection, { userId: maintainer.id, isAdmin: false }));
    const onA = await run<{ items: Array<{ id: number }> }>(deployKeysQueries.project(connection, projectA, { page: 1, per_page: 100 }));
    expect(offered.map((key) => key.id).sort()).toEqual(onA.items.map((key) => key.id).sort());
    expect(offered.map((key) => key.id)).toContain(keyOnA.id);
    const bystander = await makeUser('keys-bystander');
    expect(await run(deployKeysQueries.enableable(bystander.connection, { userId: bystander.id, isAdmin: false }))).toEqual([]);
  });

  it('adds an instance key with an expiry date', async () => {
    const key = await addInstanceDeployKey(connection, { values: { title: 'Mirror', key: DOC_ED25519, expires_at: '2030-01-31' } });
    expect(key.expires_at).toBe('2030-01-31T00:00:00.000Z');
    await enableDeployKey(connection, { projectId: projectA, keyId: key.id });
    const detail = await run<{ id: number; title: string }>(deployKeysQueries.detail(connection, projectA, key.id));
    expect(detail.title).toBe('Mirror');
  });
});
