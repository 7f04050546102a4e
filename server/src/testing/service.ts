import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built entry point of the service; tests run what users run. */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything the process printed, for failure messages. */
  output(): string;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

/** Ports this process has handed out: the OS may give a port closed a moment ago again. */
const handedOut = new Set<number>();

/**
 * A TCP port that was free a moment ago, and not one this process handed out before: two
 * calls in a row (an api and a collector port) must not get the same one.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The environment of an embedded service in `dataDir` on an api and a collector port of its own,
 * without the demo, with `extra` besides.
 */
export async function serviceEnv(dataDir: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { DATA_DIR: dataDir, API_PORT: String(await freePort()), COLLECTOR_PORT: String(await freePort()), DEMO_SEED: 'false', ...extra };
}

/**
 * Starts `node server/dist/main.js` with the given environment and waits until it prints
 * "ready". Fails with the process's output when it exits or takes longer than the timeout.
 * `enter` is a command that runs it somewhere else (a small disk's namespace: SmallDisk.enter).
 */
export async function startService(env: Record<string, string>, timeoutMs = 60_000, enter: readonly string[] = []): Promise<ServiceProcess> {
  const [command = process.execPath, ...args] = [...enter, process.execPath, MAIN];
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service not ready after ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (): void => {
      // The logger's JSON line (stdout is no terminal here).
      if (/"msg":"ready \(/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before it was ready:\n${log}`));
    });
  });

  return {
    child,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
