/** The OpenSSH public key types the platform takes as deploy keys. */
export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

export type SshKeyCheck = { ok: true; type: SshKeyType; bits: number; comment: string } | { ok: false; message: string };

const TYPE_LIST = 'ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521, sk-ssh-ed25519@openssh.com or sk-ecdsa-sha2-nistp256@openssh.com';

/** ECDSA point sizes: one 0x04 byte and two coordinates. */
const CURVE_POINT_BYTES: Record<string, number> = { nistp256: 65, nistp384: 97, nistp521: 133 };

class Truncated extends Error {}

/** The SSH wire format: uint32-length-prefixed strings. */
class WireReader {
  private offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  string(): Uint8Array {
    if (this.offset + 4 > this.bytes.length) throw new Truncated();
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.offset, 4);
    const length = view.getUint32(0);
    this.offset += 4;
    if (length > this.bytes.length - this.offset) throw new Truncated();
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  text(): string {
    return String.fromCharCode(...this.string());
  }

  get done(): boolean {
    return this.offset === this.bytes.length;
  }
}

function decodeBase64(body: string): Uint8Array | null {
  // padding only at the end, and a length a decoder accepts
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 === 1) return null;
  try {
    const binary = atob(body);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Bits of an SSH mpint (big-endian, maybe a leading zero byte). */
function mpintBits(bytes: Uint8Array): number {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  if (start === bytes.length) return 0;
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(bytes[start]));
}

/**
 * Checks an OpenSSH public key line (`type base64 [comment]`) before it is sent: the type is
 * one the platform knows, the body is base64 of a key blob of that same type with the right
 * sizes. The server still has the last word (it checks the numbers make a real key).
 */
export function checkSshPublicKey(input: string): SshKeyCheck {
  const text = input.trim();
  if (!text) return { ok: false, message: 'Paste the public key: the contents of the .pub file.' };
  if (/^-----BEGIN/.test(text)) {
    return /PRIVATE KEY/.test(text)
      ? { ok: false, message: 'This is a private key: never share it. Paste the public key instead (the .pub file).' }
      : { ok: false, message: `This is a PEM file, not an OpenSSH public key. Paste the one-line key that starts with ${TYPE_LIST}.` };
  }
  if (/^---- BEGIN SSH2 PUBLIC KEY/.test(text)) return { ok: false, message: 'This is an SSH2 (RFC 4716) key. Convert it with `ssh-keygen -i -f key.pub` and paste the one-line OpenSSH key.' };
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (lines.length > 1 && lines.slice(1).some((line) => SSH_KEY_TYPES.some((type) => line.startsWith(`${type} `)))) {
    return { ok: false, message: 'Paste one key only: each deploy key is added on its own.' };
  }
  // the platform joins a key wrapped over several lines
  const [type, body = '', ...rest] = lines.join('').split(/\s+/);
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    return { ok: false, message: `“${type.slice(0, 40)}” is not a key type the platform accepts. The key must start with ${TYPE_LIST}.` };
  }
  if (!body) return { ok: false, message: `The key has no base64 body after “${type}”.` };
  const bytes = decodeBase64(body);
  if (!bytes) return { ok: false, message: 'The key body is not valid base64: check that it was copied whole.' };
  const keyType = type as SshKeyType;
  const broken = (what: string): SshKeyCheck => ({ ok: false, message: `The key body is not a valid ${keyType} key: ${what}.` });
  let bits: number;
  try {
    const reader = new WireReader(bytes);
    const embedded = reader.text();
    if (embedded !== keyType) {
      return { ok: false, message: `The key starts with “${keyType}”, but its body is a ${/^[\x20-\x7e]{1,60}$/.test(embedded) ? `“${embedded}”` : 'different'} key. Copy the whole line from the .pub file unchanged.` };
    }
    if (keyType === 'ssh-rsa') {
      const exponent = reader.string();
      if (mpintBits(exponent) === 0) return broken('its exponent is zero');
      bits = mpintBits(reader.string());
      if (bits < 1024) return { ok: false, message: `This RSA key has ${bits} bits; the platform needs at least 1024 (use 3072 or more, or an Ed25519 key).` };
    } else if (keyType === 'ssh-ed25519' || keyType === 'sk-ssh-ed25519@openssh.com') {
      if (reader.string().length !== 32) return broken('an Ed25519 public key is 32 bytes');
      if (keyType.startsWith('sk-')) reader.text();
      bits = 256;
    } else {
      const curve = reader.text();
      const expected = keyType.replace(/^sk-/, '').replace(/@openssh\.com$/, '').replace('ecdsa-sha2-', '');
      if (curve !== expected) return broken(`its curve is “${curve.slice(0, 20)}”, not ${expected}`);
      const point = reader.string();
      if (point[0] !== 4 || point.length !== CURVE_POINT_BYTES[curve]) return broken('its curve point has the wrong size');
      if (keyType.startsWith('sk-')) reader.text();
      bits = curve === 'nistp521' ? 521 : Number(curve.slice(5));
    }
    if (!reader.done) return broken('there are extra bytes after the key');
  } catch (error) {
    if (error instanceof Truncated) return broken('it is cut short');
    throw error;
  }
  return { ok: true, type: keyType, bits, comment: rest.join(' ') };
}

/** The message for a form field, or null when the key looks right. */
export function sshKeyProblem(input: string): string | null {
  const check = checkSshPublicKey(input);
  return check.ok ? null : check.message;
}
