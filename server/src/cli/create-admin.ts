import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAdministrator } from '@stat/api';
import { readConfig } from '../config.js';

/**
 * Creates the first administrator (or makes a user one):
 *   node server/dist/cli/create-admin.js --email admin@example.com --password '…'
 * Without --password the password is read from standard input (keeps it out of `ps`).
 * Uses the service's configuration: DATABASE_URL, or PGlite in DATA_DIR/postgres.
 */
async function run(): Promise<void> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
  if (!values.email) throw new Error('usage: create-admin.js --email <e-mail> [--password <password>]');
  const password = values.password ?? (await readStdin()).replace(/\r?\n$/, '');
  const config = readConfig();
  const target = config.DATABASE_URL
    ? ({ kind: 'postgres', url: config.DATABASE_URL } as const)
    : ({ kind: 'pglite', dataDir: join(config.DATA_DIR, 'postgres') } as const);
  const outcome = await createAdministrator(target, values.email, password);
  console.log(`${values.email}: administrator ${outcome}`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
