/** What the signal handling needs of the process; tests give their own. */
export interface SignalHost {
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  exit(code: number): void;
  log(message: string): void;
}

/**
 * The first SIGTERM or SIGINT starts a graceful stop with a deadline (stop stores or keeps on
 * disk what was acknowledged); a second one exits at once (130), and so does the deadline
 * passing (1) if something still hangs.
 */
export function stopOnSignals(host: SignalHost, stop: (deadline: number) => Promise<void>, stopMs: number): void {
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      host.log(`${signal} again: exiting at once`);
      host.exit(130);
      return;
    }
    stopping = true;
    host.log(`${signal}: stopping (at most ${stopMs / 1000} s)`);
    const last = setTimeout(() => {
      host.log('stop: deadline passed, exiting');
      host.exit(1);
    }, stopMs + 1_000);
    last.unref();
    stop(Date.now() + stopMs).then(
      () => {
        clearTimeout(last);
        host.exit(0);
      },
      (error: unknown) => {
        clearTimeout(last);
        host.log(`stop failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        host.exit(1);
      },
    );
  };
  host.on('SIGTERM', () => shutdown('SIGTERM'));
  host.on('SIGINT', () => shutdown('SIGINT'));
}
