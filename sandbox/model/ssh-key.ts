import { createHash, createPublicKey } from 'node:crypto';

export interface ParsedSshKey {
  type: string;
  /** The key as stored: stripped of surrounding space and line breaks. */
  text: string;
  /** MD5 of the key blob, `aa:bb:...` (the platform's `fingerprint`). */
  md5: string;
  /** SHA-256 of the key blob, `SHA256:` and unpadded base64 (`fingerprint_sha256`). */
  sha256: string;
  bits: number;
}

/** Reads the SSH wire format: a sequence of uint32-length-prefixed strings. */
class WireReader {
  private offset = 0;
  constructor(private readonly buffer: Buffer) {}

  string(): Buffer {
    if (this.offset + 4 > this.buffer.length) throw new Error('truncated');
    const length = this.buffer.readUInt32BE(this.offset);
    this.offset += 4;
    if (length > this.buffer.length - this.offset) throw new Error('truncated');
    const value = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  done(): boolean {
    return this.offset === this.buffer.length;
  }
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
// an SSH mpint carries a leading zero byte when its top bit is set; JWK wants the bare magnitude
const unsigned = (mpint: Buffer) => (mpint[0] === 0 ? mpint.subarray(1) : mpint);

const CURVES: Record<string, { crv: string; size: number }> = {
  nistp256: { crv: 'P-256', size: 32 },
  nistp384: { crv: 'P-384', size: 48 },
  nistp521: { crv: 'P-521', size: 66 },
};

/**
 * Checks the key with node:crypto (the numbers must make a real public key, not just parse) and
 * computes both fingerprints from its blob. Returns null for anything that is not an RSA,
 * Ed25519 or ECDSA public key (or a security-key sk- variant) in OpenSSH format.
 */
export function parseSshKey(input: string): ParsedSshKey | null {
  const text = input.replace(/[\r\n]+/g, '').trim();
  const match = /^(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)\s+([A-Za-z0-9+/]+={0,2})(\s+.*)?$/.exec(text);
  if (!match) return null;
  const [, type, encoded] = match;
  const blob = Buffer.from(encoded, 'base64');
  if (blob.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) return null;
  let bits: number;
  try {
    const reader = new WireReader(blob);
    if (reader.string().toString('latin1') !== type) return null;
    if (type === 'ssh-rsa') {
      const e = unsigned(reader.string());
      const n = unsigned(reader.string());
      createPublicKey({ key: { kty: 'RSA', e: b64url(e), n: b64url(n) }, format: 'jwk' });
      bits = n.length * 8 - Math.clz32(n[0]) + 24;
      if (bits < 1024) return null;
    } else if (type === 'ssh-ed25519' || type === 'sk-ssh-ed25519@openssh.com') {
      const point = reader.string();
      if (point.length !== 32) return null;
      createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(point) }, format: 'jwk' });
      // security-key (FIDO) keys end with the application string, usually "ssh:"
      if (type.startsWith('sk-')) reader.string();
      bits = 256;
    } else {
      const curveName = reader.string().toString('latin1');
      const curve = CURVES[curveName];
      const point = reader.string();
      if (!curve || `ecdsa-sha2-${curveName}` !== type.replace(/^sk-/, '').replace(/@openssh\.com$/, '') || point[0] !== 4 || point.length !== 1 + 2 * curve.size) return null;
      createPublicKey({
        key: { kty: 'EC', crv: curve.crv, x: b64url(point.subarray(1, 1 + curve.size)), y: b64url(point.subarray(1 + curve.size)) },
        format: 'jwk',
      });
      bits = curve.size === 66 ? 521 : curve.size * 8;
      if (type.startsWith('sk-')) reader.string();
    }
    if (!reader.done()) return null;
  } catch {
    return null;
  }
  const md5 = createHash('md5').update(blob).digest('hex').match(/../g)!.join(':');
  const sha256 = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { type, text, md5, sha256, bits };
}
