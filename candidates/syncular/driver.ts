/**
 * ssp-conformance driver (docs/driver-protocol.md, version 2) for the upstream Syncular
 * TypeScript server, run under Bun.
 *
 *   bun candidates/syncular/driver.ts --server-src DIR --segments 0.21|0.22
 *
 * --server-src  the upstream packages/server/src to load (scripts/syncular-setup prepares
 *               the 0.22 one); --segments names which it is (hello reports it).
 */
import { helloMethod } from './src/hello';
import { log, type Method, Server } from './src/protocol';
import { segmentMethods } from './src/segments';
import { loadSegments } from './src/upstream';

function argument(name: string): string {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? undefined : process.argv[at + 1];
  if (value === undefined) {
    log(`usage: bun driver.ts --server-src DIR --segments 0.21|0.22 (missing ${name})`);
    process.exit(64);
  }
  return value;
}

const serverSrc = argument('--server-src');
const segmentsVersion = argument('--segments');
if (segmentsVersion !== '0.21' && segmentsVersion !== '0.22') {
  log(`--segments must be 0.21 or 0.22, not ${segmentsVersion}`);
  process.exit(64);
}

const upstream = await loadSegments(serverSrc);
const methods = new Map<string, Method>([['hello', helloMethod(segmentsVersion)], ...segmentMethods(upstream)]);
await new Server(methods).run();
