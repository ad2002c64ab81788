import { createServer } from 'node:http';
import { baselinePayload } from './baseline-payload';

/**
 * Baseline 1: bare `node:http`, the ceiling of any Node server on this machine. Every request,
 * whatever its path, gets the payload serialised afresh, as a handler would do.
 */
const payload = baselinePayload();
const server = createServer((_req, res) => {
  const body = JSON.stringify(payload);
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `node:http baseline listening on ${typeof address === 'object' && address ? address.port : '?'}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
