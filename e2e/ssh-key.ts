import { createHash, generateKeyPairSync } from 'node:crypto';

/**
 * A fresh Ed25519 public key in OpenSSH form, and its SHA256 fingerprint as `ssh-keygen -l`
 * prints it: the platform refuses a key it already holds, so every test makes its own.
 */
export function newSshKey(comment = 'e2e@console'): { text: string; sha256: string } {
  const x = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
  // SSH wire format: uint32 length + "ssh-ed25519", uint32 length + the 32-byte point
  const wire = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), x]);
  return { text: `ssh-ed25519 ${wire.toString('base64')} ${comment}`, sha256: `SHA256:${createHash('sha256').update(wire).digest('base64').replace(/=+$/, '')}` };
}
