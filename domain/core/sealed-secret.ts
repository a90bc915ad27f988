/** A secret as the log keeps it, sealed by the key-encryption secret's box (commands/core/secret.box.ts). */
export type SealedSecret = string;

/** the first sealed form, `enc:v1:<salt>.<iv>.<tag>.<ciphertext>` (base64url parts) */
export const SEALED = /^enc:v1:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
export const isSealed = (s: unknown): s is SealedSecret => typeof s === 'string' && SEALED.test(s);

/**
 * What a command or a router needs of the box: seal a short secret under associated data naming its
 * place, and open it again.
 */
export type Sealer = {
  seal(clear: string, aad: string): SealedSecret;
  /** throws when the value does not open (another key-encryption secret, or a moved ciphertext) */
  open(sealed: SealedSecret, aad: string): string;
};
