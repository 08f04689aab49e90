/**
 * ssp-conformance driver (docs/driver-protocol.md, version 2) for the upstream Syncular
 * TypeScript server, run under Bun.
 *
 *   bun candidates/syncular/driver.ts --server-src DIR --segments 0.21|0.22
 *       [--storage sqlite|d1[,postgres]] [--coordinator serial|none]
 *
 * --server-src  the upstream packages/server/src to load (scripts/syncular-setup prepares
 *               the 0.22 one); --segments names which it is (hello reports it).
 * --storage     also serve upstream's server storage (areas storage and rows, push,
 *               transactions) on these backends; without it only the segments area is served.
 *               `d1` serves the sqlite backend with upstream's D1 storage, on a D1 binding
 *               over the harness's file, behind a per-partition coordinator (src/coordinator.ts).
 * --coordinator `serial` (the default) queues each partition's pushes and commands; `none`
 *               asserts serialization to the D1 storage and queues nothing: a misconfigured
 *               host, which the suite must catch.
 */
import { commandMethods } from './src/commands';
import { coordinatorMethods } from './src/coordinator';
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
    log(`usage: bun driver.ts --server-src DIR --segments 0.21|0.22 [--storage sqlite|d1[,postgres]] [--coordinator serial|none] (missing ${name})`);
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
  if (backend !== 'sqlite' && backend !== 'd1' && backend !== 'postgres') {
    log(`--storage takes sqlite or d1, and/or postgres, not ${backend}`);
    process.exit(64);
  }
}
if (storageBackends.includes('sqlite') && storageBackends.includes('d1')) {
  log('--storage: sqlite and d1 both serve the sqlite backend; name one');
  process.exit(64);
}
const coordinatorMode = argument('--coordinator', 'serial');
if (coordinatorMode !== 'serial' && coordinatorMode !== 'none') {
  log(`--coordinator must be serial or none, not ${coordinatorMode}`);
  process.exit(64);
}
const d1 = storageBackends.includes('d1');

const methods = new Map<string, Method>([
  ['hello', helloMethod({ segmentsVersion, storageBackends: storageBackends as ('sqlite' | 'd1' | 'postgres')[], coordinator: d1 ? coordinatorMode : undefined })],
  ...segmentMethods(await loadSegments(serverSrc)),
]);
if (storageBackends.length > 0) {
  const upstream = await loadServer(serverSrc);
  const storages = d1 ? new Storages(upstream, 'd1', coordinatorMode === 'serial') : new Storages(upstream);
  const readers = new Map(); // commit validators waiting, shared by push.run and command.run
  for (const group of [
    storageMethods(storages),
    transactionMethods(storages),
    pushMethods(storages, readers),
    commandMethods(storages, readers),
    rowMethods(upstream),
    schemaMethods(upstream),
    d1 ? coordinatorMethods(coordinatorMode === 'serial') : new Map<string, Method>(),
  ]) {
    for (const [name, method] of group) methods.set(name, method);
  }
}
await new Server(methods).run();
