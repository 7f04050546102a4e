import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite.js';
import { createAdministrator } from './admin.js';

// Needs: nothing (PGlite in a temporary directory).
describe('createAdministrator (the create-admin command)', () => {
  it('creates an ADMIN, then updates the same account, and refuses bad input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stat-admin-'));
    try {
      const target = { kind: 'pglite', dataDir: join(dir, 'pg') } as const;
      expect(await createAdministrator(target, 'Root@Example.com', 'first password')).toBe('created');
      expect(await createAdministrator(target, 'root@example.com', 'second password')).toBe('updated');
      await expect(createAdministrator(target, 'nobody', 'long enough')).rejects.toThrow('not an e-mail: nobody');
      await expect(createAdministrator(target, 'a@b.cd', 'short')).rejects.toThrow(/8 to 128/);
      const db = await openPglite(join(dir, 'pg'));
      expect(await db.query('SELECT email, role_id FROM users')).toEqual([{ email: 'root@example.com', role_id: 1 }]);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a password of eight spaces, for a new account and for an existing one, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stat-admin-'));
    try {
      const target = { kind: 'pglite', dataDir: join(dir, 'pg') } as const;
      expect(await createAdministrator(target, 'root@example.com', 'first password')).toBe('created');
      const db = await openPglite(join(dir, 'pg'));
      const before = await db.query('SELECT * FROM users');
      await db.close();
      for (const email of ['root@example.com', 'second@example.com']) {
        await expect(createAdministrator(target, email, '        ')).rejects.toThrow('the password must have 8 to 128 characters, not all of them blanks');
      }
      const after = await openPglite(join(dir, 'pg'));
      expect(await after.query('SELECT * FROM users')).toEqual(before);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
