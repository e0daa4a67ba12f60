/**
 * The vault's encryption: AES-256-GCM under a key derived (HKDF) from the operator's secret
 * (`MCP_TOKEN_VAULT_SECRET`), with the record's key name as associated data, so a record moved
 * to another key (another user's) fails to open. In memory the key is random per process.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Shortest vault secret accepted (characters). */
export const MIN_VAULT_SECRET_CHARS = 32;

/** Seals and opens records bound to their key name. */
export class RecordSeal {
  private readonly key: Buffer;

  /** Without a secret (memory vault) the key is random: records live as long as the process. */
  constructor(secret?: string) {
    this.key = secret ? Buffer.from(hkdfSync("sha256", secret, "mcp-gen token vault", "records", 32)) : randomBytes(32);
  }

  /** `value` encrypted and authenticated for `name`: base64url of iv, tag and ciphertext. */
  seal(name: string, value: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(name));
    const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The value sealed for `name`, or undefined when it was not (tampered, another key or name). */
  open(name: string, sealed: string): string | undefined {
    try {
      const bytes = Buffer.from(sealed, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(name));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }
}
