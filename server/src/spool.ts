import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateAcceptedHit, type AcceptedHit } from '@stat/schemas';

/**
 * Acknowledged hits that a stop of an older version could not store (ClickHouse or Kafka down),
 * kept on disk in DATA_DIR/spool: the first start of this version moves them into the hit log
 * (embedded) or to Kafka (cluster). This version never writes there: every hit it acknowledges is
 * in the hit log or in Kafka already. One file per stop, JSON lines; written to a temporary name
 * and renamed, so a file is whole or absent (write() stays for the tests of that move).
 */
export class Spool {
  private readonly dir: string;
  private written = 0;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'spool');
  }

  /** Writes the hits to a new file; returns its path (null when there were none). */
  write(hits: readonly AcceptedHit[]): string | null {
    if (hits.length === 0) return null;
    mkdirSync(this.dir, { recursive: true });
    // Time first, so names sort oldest first; pid and a count keep two writes apart.
    const name = `unstored-${String(Date.now()).padStart(15, '0')}-${process.pid}-${++this.written}.ndjson`;
    const temporary = join(this.dir, `.${name}.tmp`);
    writeFileSync(temporary, hits.map((hit) => JSON.stringify(hit)).join('\n') + '\n');
    renameSync(temporary, join(this.dir, name));
    return join(this.dir, name);
  }

  /**
   * The files kept by earlier stops, oldest first, each with its hits. A line that is not an
   * accepted hit (a file edited by hand) is set aside in `rejected-*.ndjson` with its reason.
   */
  read(): { file: string; hits: AcceptedHit[] }[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => name.startsWith('unstored-') && name.endsWith('.ndjson'));
    } catch {
      return [];
    }
    return names.sort().map((name) => {
      const file = join(this.dir, name);
      const hits: AcceptedHit[] = [];
      const rejected: string[] = [];
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.length === 0) continue;
        const checked = validateAcceptedHit(parseLine(line));
        if (checked.ok) hits.push(checked.accepted);
        else rejected.push(JSON.stringify({ reason: checked.reason, line }));
      }
      if (rejected.length > 0) writeFileSync(join(this.dir, `rejected-${name}`), rejected.join('\n') + '\n');
      return { file, hits };
    });
  }

  /** Removes a file whose hits are stored (or, in cluster mode, on the bus). */
  remove(file: string): void {
    rmSync(file, { force: true });
  }
}

/** A line as its JSON value, or as its text when it is not JSON (a dead letter then, not a crash). */
function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return line;
  }
}
