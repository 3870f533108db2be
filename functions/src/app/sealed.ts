import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets a use case must read back (a drive's tokens), sealed with AES-256-GCM under a key kept
 * outside the table (Secrets Manager on AWS, DATA_DIR/keys locally): a copy of the table alone
 * reveals nothing. `context` (the owner's id) is authenticated with the text, so a sealed value
 * moved onto another account's item does not open.
 */
export interface Sealed {
  iv: string;
  data: string;
  tag: string;
}

export function seal(key: Buffer, context: string, text: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return { iv: iv.toString("base64"), data: data.toString("base64"), tag: cipher.getAuthTag().toString("base64") };
}

/** The text, or undefined when the key or the context is not the one it was sealed with. */
export function unseal(key: Buffer, context: string, sealed: Sealed): string | undefined {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"))
      .setAAD(Buffer.from(context))
      .setAuthTag(Buffer.from(sealed.tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
