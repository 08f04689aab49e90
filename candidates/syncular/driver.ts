/**
 * ssp-conformance driver (docs/driver-protocol.md, version 2) for the upstream Syncular
 * TypeScript server, run under Bun.
 *
 *   bun candidates/syncular/driver.ts --server-src DIR --segments 0.21|0.22 [--storage sqlite,postgres]
 *
 * --server-src  the upstream packages/server/src to load (scripts/syncular-setup prepares
 *               the 0.22 one); --segments names which it is (hello reports it).
 * --storage     also serve upstream's server storage (areas storage and rows, push,
 *               transactions) on these backends; without it only the segments area is served.
 */
import { commandMethods } from './src/commands';
import { helloMethod } from './src/hello';
import { log, type Method, Server } from './src/protocol';
import { pushMethods } from './src/push';
import { rowMethods } from './src/rows';
import { schemaMethods } from './src/schema-area';
import { segmentMethods } from './src/segments';
import { storageMethods } from './src/storage';
import { Storages } from './src/storages';
import { transactionMethods } from './src/transactions';
import { loadSegments, loadServer } from './src/upstream';

function argument(name: string, fallback?: string): string {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? fallback : process.argv[at + 1];
  if (value === undefined) {
    log(`usage: bun driver.ts --server-src DIR --segments 0.21|0.22 [--storage sqlite,postgres] (missing ${name})`);
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
const storageBackends = argument('--storage', '')
  .split(',')
  .filter((b) => b !== '');
for (const backend of storageBackends) {
  if (backend !== 'sqlite' && backend !== 'postgres') {
    log(`--storage takes sqlite and/or postgres, not ${backend}`);
    process.exit(64);
  }
}

const methods = new Map<string, Method>([
  ['hello', helloMethod({ segmentsVersion, storageBackends: storageBackends as ('sqlite' | 'postgres')[] })],
  ...segmentMethods(await loadSegments(serverSrc)),
]);
if (storageBackends.length > 0) {
  const upstream = await loadServer(serverSrc);
  const storages = new Storages(upstream);
  const readers = new Map(); // commit validators waiting, shared by push.run and command.run
  for (const group of [
    storageMethods(storages),
    transactionMethods(storages),
    pushMethods(storages, readers),
    commandMethods(storages, readers),
    rowMethods(upstream),
    schemaMethods(upstream),
  ]) {
    for (const [name, method] of group) methods.set(name, method);
  }
}
await new Server(methods).run();
