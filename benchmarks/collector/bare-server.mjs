// The ceiling for the collector benchmark: uWebSockets.js answering 204 to every request with
// no work at all (no body read, no validation, no bus). The collector is measured against it.
//
//   BARE_PORT=8090 node benchmarks/collector/bare-server.mjs
//
// Environment: BARE_PORT (default 8090), BARE_HOST (default 127.0.0.1).
import { App, us_listen_socket_close } from 'uws-pack';

const host = process.env.BARE_HOST || '127.0.0.1';
const port = Number(process.env.BARE_PORT || 8090);

let token = null;
App()
  .any('/*', (res) => {
    res.writeStatus('204 No Content').endWithoutBody();
  })
  .listen(host, port, (listenSocket) => {
    if (!listenSocket) {
      console.error(`bare-server: cannot listen on ${host}:${port}`);
      process.exit(1);
    }
    token = listenSocket;
    console.log(`bare-server: http://${host}:${port}/ answers 204`);
  });

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (token) us_listen_socket_close(token);
    process.exit(0);
  });
}
