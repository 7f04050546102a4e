import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

let dummy: Promise<string> | null = null;

/**
 * Checks a password. With no stored hash (unknown e-mail) it still spends the time of a
 * verification, so the answer's timing does not tell which e-mails have accounts.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    dummy ??= hashPassword('not a password of anyone');
    await argon2.verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
