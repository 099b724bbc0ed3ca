import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { parseSshKey } from '../model/ssh-key.ts';

// keys and fingerprints from the platform's documentation, confirmed with ssh-keygen -l
const DOC_RSA = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDNJAkI3Wdf0r13c8a5pEExB2YowPWCSVzfZV22pNBc1CuEbyYLHpUyaD0GwpGvFdx2aP7lMEk35k6Rz3ccBF6jRaVJyhsn5VNnW92PMpBJ/P1UebhXwsFHdQf5rTt082cSxWuk61kGWRQtk4ozt/J2DF/dIUVaLvc+z4HomT41fQ==';
const DOC_ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILkYXU2fVeO4/0rDCSsswP5iIX2+B6tv15YT3KObgyDl Key';
const ECDSA = 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBBFnmaDp0xe3gJiSvthWyCoK5VJOr7FuHDRYGq45lq+pySVM8W0pdiTAQFbjfi6iSee+pRFeJUYYyuLmNippSWU= ec';

/** A fresh Ed25519 public key in OpenSSH format, made with node:crypto. */
function newKey(comment = 'generated'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const x = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const part = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(x)]).toString('base64')} ${comment}`;
}

let h: Harness;
let maintainer: ReturnType<Harness['user']>;
let developer: ReturnType<Harness['user']>;
let colleague: ReturnType<Harness['user']>;
let projectA: number;
let projectB: number;
let projectC: number;

beforeAll(async () => {
  h = createHarness();
  maintainer = h.user();
  developer = h.user();
  colleague = h.user();
  projectA = (await h.post('/projects', { name: 'Deploy A' })).body.id;
  projectB = (await h.post('/projects', { name: 'Deploy B' })).body.id;
  projectC = (await h.post('/projects', { name: 'Deploy C' })).body.id;
  for (const project of [projectA, projectB]) await h.post(`/projects/${project}/members`, { user_id: maintainer.id, access_level: 40 });
  await h.post(`/projects/${projectA}/members`, { user_id: developer.id, access_level: 30 });
  await h.post(`/projects/${projectA}/members`, { user_id: colleague.id, access_level: 40 });
});

afterAll(() => h.close());

describe('fingerprints', () => {
  it('computes MD5 and SHA256 fingerprints from the key blob', () => {
    expect(parseSshKey(DOC_RSA)).toMatchObject({ md5: '4a:9d:64:15:ed:3a:e6:07:6e:89:36:b3:3b:03:05:d9', sha256: 'SHA256:Jrs3LD1Ji30xNLtTVf9NDCj7kkBgPBb2pjvTZ3HfIgU', bits: 1024 });
    expect(parseSshKey(DOC_ED25519)).toMatchObject({ md5: '40:8e:fa:df:70:f7:a7:06:1e:0d:6f:ae:f2:27:92:01', sha256: 'SHA256:Ojq2LZW43BFK/AMP81jBkDGn9YpPWYRNcViKBB44LPU' });
    expect(parseSshKey(ECDSA)).toMatchObject({ md5: '4e:27:9b:a6:8a:76:bd:a6:72:23:69:22:e0:f3:f1:69', sha256: 'SHA256:mFkCOYmqI4bJtEzg7bRo5a96jdEflI/hsdM4nYve+l8' });
  });

  it('accepts security-key (sk-) Ed25519 and ECDSA keys, whose blob ends with the application', () => {
    const wire = (...parts: Buffer[]) => Buffer.concat(parts.flatMap((part) => [Buffer.from([0, 0, 0, part.length]), part]));
    const ed = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
    const edType = 'sk-ssh-ed25519@openssh.com';
    expect(parseSshKey(`${edType} ${wire(Buffer.from(edType), ed, Buffer.from('ssh:')).toString('base64')} yubikey`)).toMatchObject({ type: edType, bits: 256 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(ec.x!, 'base64url'), Buffer.from(ec.y!, 'base64url')]);
    const ecType = 'sk-ecdsa-sha2-nistp256@openssh.com';
    expect(parseSshKey(`${ecType} ${wire(Buffer.from(ecType), Buffer.from('nistp256'), point, Buffer.from('ssh:')).toString('base64')}`)).toMatchObject({ type: ecType, bits: 256 });
    // without the application string the blob is cut short
    expect(parseSshKey(`${edType} ${wire(Buffer.from(edType), ed).toString('base64')}`)).toBeNull();
  });

  it('refuses malformed keys', () => {
    const [type, blob] = DOC_ED25519.split(' ');
    for (const bad of ['', 'not a key', `${type}`, `${type} !!!!`, `ssh-rsa ${blob}`, `${type} ${blob.slice(0, -8)}`, `ssh-dss ${blob}`, `${type} ${Buffer.from('garbage').toString('base64')}`]) {
      expect(parseSshKey(bad), bad).toBeNull();
    }
  });
});

describe('instance deploy keys', () => {
  it('adds a public key as an administrator (201) and lists all keys with their projects', async () => {
    const created = await h.post('/deploy_keys', { title: 'Instance key', key: DOC_RSA, expires_at: '2030-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      title: 'Instance key',
      created_at: expect.any(String),
      expires_at: '2030-01-01T00:00:00.000Z',
      key: DOC_RSA,
      usage_type: 'auth_and_signing',
      fingerprint: '4a:9d:64:15:ed:3a:e6:07:6e:89:36:b3:3b:03:05:d9',
      fingerprint_sha256: 'SHA256:Jrs3LD1Ji30xNLtTVf9NDCj7kkBgPBb2pjvTZ3HfIgU',
    });
    const duplicate = await h.post('/deploy_keys', { title: 'Again', key: DOC_RSA });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: { fingerprint_sha256: ['has already been taken'] } });
    const malformed = await h.post('/deploy_keys', { title: 'Bad', key: 'ssh-rsa AAAA' });
    expect(malformed.body).toEqual({ message: { key: ['is invalid'], fingerprint_sha256: ['cannot be generated'] } });
    expect((await h.post('/deploy_keys', { title: 'x' })).body).toEqual({ error: 'key is missing' });
    expect((await h.post('/deploy_keys', { title: 'x', key: newKey() }, { token: maintainer.token })).status).toBe(403);
    expect((await h.get('/deploy_keys', { token: maintainer.token })).status).toBe(403);
  });

  it('lets a maintainer enable the public key, and shows it in the instance list', async () => {
    const instanceKey = (await h.get('/deploy_keys?public=true')).body[0];
    const enabled = await h.post(`/projects/${projectA}/deploy_keys/${instanceKey.id}/enable`, {}, { token: maintainer.token });
    expect(enabled.status).toBe(201);
    expect(enabled.body.id).toBe(instanceKey.id);
    const list = await h.get('/deploy_keys');
    const entry = list.body.find((key: { id: number }) => key.id === instanceKey.id);
    expect(entry.projects_with_readonly_access).toEqual([expect.objectContaining({ id: projectA, name: 'Deploy A', path_with_namespace: expect.any(String), name_with_namespace: expect.stringContaining(' / Deploy A') })]);
    expect(entry.projects_with_write_access).toEqual([]);
    expect((await h.post(`/projects/${projectA}/deploy_keys/999999/enable`, {}, { token: maintainer.token })).body).toEqual({ message: '404 Deploy key Not Found' });
  });
});

describe('project deploy keys', () => {
  let keyId: number;
  const projectKey = newKey('project key');

  it('adds a key to a project (201) with can_push', async () => {
    const added = await h.post(`/projects/${projectA}/deploy_keys`, { title: 'CI', key: `  ${projectKey}\n`, can_push: true }, { token: maintainer.token });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ title: 'CI', key: projectKey, can_push: true, expires_at: null, usage_type: 'auth_and_signing' });
    expect(added.body.fingerprint_sha256).toBe(parseSshKey(projectKey)!.sha256);
    keyId = added.body.id;
    const again = await h.post(`/projects/${projectA}/deploy_keys`, { title: 'CI again', key: projectKey }, { token: maintainer.token });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(keyId);
  });

  it('joins an existing key the caller reaches, and refuses one they do not', async () => {
    const joined = await h.post(`/projects/${projectB}/deploy_keys`, { title: 'ignored', key: projectKey }, { token: maintainer.token });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ id: keyId, title: 'CI', can_push: false });
    // the administrator owns project C; a key only reachable through project A is not theirs to reuse as a stranger
    const stranger = h.user();
    const strangerProject = (await h.post('/projects', { name: 'Stranger' }, { token: stranger.token })).body.id;
    const refused = await h.post(`/projects/${strangerProject}/deploy_keys`, { title: 'copy', key: projectKey }, { token: stranger.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } });
  });

  it('lists and gets a project key, for Maintainers only', async () => {
    const list = await h.get(`/projects/${projectA}/deploy_keys`, { token: maintainer.token });
    expect(list.status).toBe(200);
    expect(list.body.map((key: { id: number }) => key.id)).toContain(keyId);
    expect(list.body.find((key: { id: number }) => key.id === keyId)).toMatchObject({ can_push: true, fingerprint: parseSshKey(projectKey)!.md5 });
    const one = await h.get(`/projects/${projectA}/deploy_keys/${keyId}`, { token: maintainer.token });
    expect(one.body).toMatchObject({ id: keyId, title: 'CI', can_push: true });
    expect((await h.get(`/projects/${projectC}/deploy_keys/${keyId}`)).body).toEqual({ message: '404 Not found' });
    expect((await h.get(`/projects/${projectA}/deploy_keys`, { token: developer.token })).status).toBe(403);
  });

  it('rejects malformed keys and missing fields with the platform bodies', async () => {
    const bad = await h.post(`/projects/${projectA}/deploy_keys`, { title: 'bad', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==' }, { token: maintainer.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { 'deploy_key.key': ['is invalid'], 'deploy_key.fingerprint_sha256': ['cannot be generated'] } });
    expect((await h.post(`/projects/${projectA}/deploy_keys`, {}, { token: maintainer.token })).body).toEqual({ error: 'key is missing, title is missing' });
    const blankTitle = await h.post(`/projects/${projectA}/deploy_keys`, { title: ' ', key: newKey() }, { token: maintainer.token });
    expect(blankTitle.body).toEqual({ message: { 'deploy_key.title': ["can't be blank"] } });
  });

  it('updates the title and can_push', async () => {
    const updated = await h.put(`/projects/${projectA}/deploy_keys/${keyId}`, { title: 'CI renamed', can_push: false }, { token: maintainer.token });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: keyId, title: 'CI renamed', can_push: false });
    expect((await h.get(`/projects/${projectB}/deploy_keys/${keyId}`, { token: maintainer.token })).body.title).toBe('CI renamed');
    expect((await h.put(`/projects/${projectA}/deploy_keys/${keyId}`, {}, { token: maintainer.token })).body).toEqual({ error: 'title, can_push are missing, at least one parameter must be provided' });
    expect((await h.put(`/projects/${projectA}/deploy_keys/424242`, { title: 'x' }, { token: maintainer.token })).status).toBe(404);
  });

  it("lists the keys of projects the caller and another user both maintain", async () => {
    const common = await h.get(`/users/${colleague.username}/project_deploy_keys`, { token: maintainer.token });
    expect(common.status).toBe(200);
    expect(common.body.map((key: { id: number }) => key.id)).toContain(keyId);
    expect(common.body[0]).not.toHaveProperty('can_push');
    const none = await h.get(`/users/${developer.id}/project_deploy_keys`, { token: maintainer.token });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({ message: '403 Forbidden - No common authorized projects found' });
    expect((await h.get('/users/no-such-user/project_deploy_keys', { token: maintainer.token })).body).toEqual({ message: '404 User Not Found' });
  });

  it('deletes a key from a project (204), and from the system with its last project', async () => {
    expect((await h.delete(`/projects/${projectA}/deploy_keys/${keyId}`, { token: maintainer.token })).status).toBe(204);
    const stillThere = (await h.get('/deploy_keys')).body.find((key: { id: number }) => key.id === keyId);
    expect(stillThere.projects_with_readonly_access.map((p: { id: number }) => p.id)).toEqual([projectB]);
    expect((await h.delete(`/projects/${projectB}/deploy_keys/${keyId}`, { token: maintainer.token })).status).toBe(204);
    expect((await h.get('/deploy_keys')).body.find((key: { id: number }) => key.id === keyId)).toBeUndefined();
    expect((await h.delete(`/projects/${projectB}/deploy_keys/${keyId}`, { token: maintainer.token })).body).toEqual({ message: '404 Deploy key Not Found' });
    // the public instance key stays when its last project lets go of it
    const instanceKey = (await h.get('/deploy_keys?public=true')).body[0];
    expect((await h.delete(`/projects/${projectA}/deploy_keys/${instanceKey.id}`, { token: maintainer.token })).status).toBe(204);
    expect((await h.get('/deploy_keys?public=true')).body.map((key: { id: number }) => key.id)).toContain(instanceKey.id);
  });
});
