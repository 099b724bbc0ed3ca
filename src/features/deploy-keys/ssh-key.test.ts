import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSshPublicKey, sshKeyProblem } from './ssh-key.ts';

/** SSH wire strings: uint32 length, then the bytes. */
function wire(...parts: Array<string | Buffer>): Buffer {
  return Buffer.concat(parts.flatMap((part) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return [length, bytes];
  }));
}
const mpint = (base64url: string) => {
  const bytes = Buffer.from(base64url, 'base64url');
  return bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes;
};

/** A freshly generated key in OpenSSH's one-line form. */
function opensshKey(kind: 'ed25519' | 'rsa' | 'p256' | 'p384' | 'p521', comment = 'ci@example'): string {
  if (kind === 'ed25519') {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    return `ssh-ed25519 ${wire('ssh-ed25519', Buffer.from(jwk.x!, 'base64url')).toString('base64')} ${comment}`;
  }
  if (kind === 'rsa') {
    const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
    return `ssh-rsa ${wire('ssh-rsa', mpint(jwk.e!), mpint(jwk.n!)).toString('base64')} ${comment}`;
  }
  const curve = { p256: ['P-256', 'nistp256'], p384: ['P-384', 'nistp384'], p521: ['P-521', 'nistp521'] }[kind];
  const jwk = generateKeyPairSync('ec', { namedCurve: curve[0] }).publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return `ecdsa-sha2-${curve[1]} ${wire(`ecdsa-sha2-${curve[1]}`, curve[1], point).toString('base64')} ${comment}`;
}

const DOC_RSA = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDNJAkI3Wdf0r13c8a5pEExB2YowPWCSVzfZV22pNBc1CuEbyYLHpUyaD0GwpGvFdx2aP7lMEk35k6Rz3ccBF6jRaVJyhsn5VNnW92PMpBJ/P1UebhXwsFHdQf5rTt082cSxWuk61kGWRQtk4ozt/J2DF/dIUVaLvc+z4HomT41fQ==';
const DOC_ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILkYXU2fVeO4/0rDCSsswP5iIX2+B6tv15YT3KObgyDl Key';

describe('OpenSSH public key check', () => {
  it('accepts real keys of every supported type, with sizes and comments', () => {
    expect(checkSshPublicKey(opensshKey('ed25519'))).toEqual({ ok: true, type: 'ssh-ed25519', bits: 256, comment: 'ci@example' });
    expect(checkSshPublicKey(opensshKey('rsa', 'two words'))).toEqual({ ok: true, type: 'ssh-rsa', bits: 2048, comment: 'two words' });
    expect(checkSshPublicKey(opensshKey('p256'))).toMatchObject({ ok: true, type: 'ecdsa-sha2-nistp256', bits: 256 });
    expect(checkSshPublicKey(opensshKey('p384'))).toMatchObject({ ok: true, type: 'ecdsa-sha2-nistp384', bits: 384 });
    expect(checkSshPublicKey(opensshKey('p521'))).toMatchObject({ ok: true, type: 'ecdsa-sha2-nistp521', bits: 521 });
    expect(checkSshPublicKey(DOC_RSA)).toEqual({ ok: true, type: 'ssh-rsa', bits: 1024, comment: '' });
    expect(checkSshPublicKey(`  ${DOC_ED25519}\n`)).toEqual({ ok: true, type: 'ssh-ed25519', bits: 256, comment: 'Key' });
  });

  it('accepts security-key (sk-) keys, whose blob ends with the application', () => {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const type = 'sk-ssh-ed25519@openssh.com';
    expect(checkSshPublicKey(`${type} ${wire(type, Buffer.from(jwk.x!, 'base64url'), 'ssh:').toString('base64')}`)).toMatchObject({ ok: true, type });
  });

  it('says what is wrong with what is not a public key', () => {
    expect(sshKeyProblem('')).toMatch(/Paste the public key/);
    expect(sshKeyProblem('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----')).toMatch(/private key/);
    expect(sshKeyProblem('ssh-dss AAAAB3NzaC1kc3MAAACBAP')).toMatch(/“ssh-dss” is not a key type/);
    expect(sshKeyProblem('ssh-ed25519')).toMatch(/no base64 body/);
    expect(sshKeyProblem('ssh-ed25519 not*base64!')).toMatch(/not valid base64/);
  });

  it('refuses a body of another type, a cut key and extra bytes', () => {
    const ed25519Body = opensshKey('ed25519').split(' ')[1];
    expect(sshKeyProblem(`ssh-rsa ${ed25519Body}`)).toBe('The key starts with “ssh-rsa”, but its body is a “ssh-ed25519” key. Copy the whole line from the .pub file unchanged.');
    const cut = Buffer.from(ed25519Body, 'base64').subarray(0, 30).toString('base64');
    expect(sshKeyProblem(`ssh-ed25519 ${cut}`)).toMatch(/cut short/);
    // the sandbox's own example of a bad key: an Ed25519 blob with no point at all
    expect(sshKeyProblem('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==')).toMatch(/cut short/);
    const padded = Buffer.concat([Buffer.from(ed25519Body, 'base64'), Buffer.from([0])]).toString('base64');
    expect(sshKeyProblem(`ssh-ed25519 ${padded}`)).toMatch(/extra bytes/);
    expect(sshKeyProblem('ssh-rsa AAAA')).toMatch(/not a valid ssh-rsa key|cut short|different/);
  });

  it('refuses short RSA keys, curve mismatches and several keys at once', () => {
    const jwk = generateKeyPairSync('rsa', { modulusLength: 512 }).publicKey.export({ format: 'jwk' });
    expect(sshKeyProblem(`ssh-rsa ${wire('ssh-rsa', mpint(jwk.e!), mpint(jwk.n!)).toString('base64')}`)).toMatch(/512 bits/);
    const p256 = opensshKey('p256').split(' ')[1];
    const blob = wire('ecdsa-sha2-nistp384', 'nistp256', Buffer.alloc(65, 4)).toString('base64');
    expect(sshKeyProblem(`ecdsa-sha2-nistp384 ${blob}`)).toMatch(/curve is “nistp256”, not nistp384/);
    expect(sshKeyProblem(`ecdsa-sha2-nistp256 ${p256}\n${opensshKey('ed25519')}`)).toMatch(/one key only/);
  });
});
