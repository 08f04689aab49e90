// Bug: upstream's SQLite storage reads a stored push result that its own
//   serializer cannot have written as valid, instead of the idempotency cache
//   miss, and a retried push then serves a made-up or unencodable answer.
// Breaks: SPEC.md §6.3 lines 2643-2645 (a cached result the server cannot read
//   is answered with the retryable `sync.idempotency_cache_miss`; no keyword);
//   for the unencodable case also §6.4 lines 2721-2723 (a rejected
//   commit does not stop the batch) since the whole request fails.
// Upstream: packages/server/src/sqlite-storage.ts:824-844 (getPushResult) trusts
//   sqlite-dialect.ts:195-237 (deserializePushResult, which checks no shape);
//   push.ts:741-756 (resultFrame) and :895 serve it.
// Run: SYNCULAR_SRC=…/packages/server/src bun run unreadable-result-read-as-valid.ts
//   Exit 1 = bug shows, 0 = fixed.
import { SYNCULAR_SRC } from './upstream-src.ts';
const S = SYNCULAR_SRC;
const srv = await import(`${S}/index-bun.ts`);
const core = await import(Bun.resolveSync('@syncular/core', S));

const columns = [{ name: 'id', type: 'string', nullable: false }, { name: 'project_id', type: 'string', nullable: false }];
const schema = { version: 1, tables: [{ name: 'tasks', columns, primaryKey: 'id', scopes: ['project:{project_id}'] }] };
const compiled = srv.compileSchema(schema);
const storage = new srv.SqliteServerStorage(':memory:');
await storage.ensureSchema(compiled);
const { logEpoch } = await storage.touchPartition('acme', Date.now(), 'epoch-1');
const ctx = { storage, partition: 'acme', actorId: 'u', schema, segments: new srv.MemorySegmentStore(),
  resolveScopes: () => ({ project_id: ['*'] }) };
const allowed = { ok: true, allowed: { project_id: ['*'] } };
const ops = [{ table: 'tasks', rowId: 't1', op: 'upsert', payload: core.encodeRow(columns, ['t1', 'p1']) }];
const show = (v: unknown) => JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? [...x] : x));
const attempt = async (f: () => Promise<unknown>) => {
  try { return `resolves ${show(await f())}`; } catch (e) { return `throws ${(e as Error).message}`; }
};

const cases = [
  ['k1', '{"status":"applied","results":[{"opIndex":0,"status":"applied"}]}'], // applied, no commitSeq
  ['k2', '{"status":"maybe","results":[]}'], // unknown status
];
let bug = false;
console.log('EXPECTED: for each stored record, getPushResult throws sync.idempotency_cache_miss and a retried push'
  + ' answers rejected [{opIndex:0,status:error,code:sync.idempotency_cache_miss,retryable:true}]; the row stays unwritten');
for (const [key, text] of cases) {
  storage.db.query('INSERT INTO sync_push_results(partition,client_id,client_commit_id,result) VALUES (?,?,?,?)')
    .run('acme', 'c1', key, text);
  const read = await attempt(() => storage.getPushResult('acme', 'c1', key));
  let frame: any;
  const push = await attempt(async () => (frame = await srv.processPushCommit(ctx, compiled, allowed, 'c1',
    { type: 'PUSH_COMMIT', clientCommitId: key, operations: ops })));
  // The same retry over the wire: handleSyncRequest with REQ_HEADER + PUSH_COMMIT.
  const request = core.encodeMessage({ wireVersion: core.PROTOCOL_WIRE_VERSION, msgKind: 'request', frames: [
    { type: 'REQ_HEADER', clientId: 'c1', schemaVersion: 1, logEpoch },
    { type: 'PUSH_COMMIT', clientCommitId: key, operations: ops }] });
  const wire = await attempt(async () => core.decodeMessage(await srv.handleSyncRequest(request, ctx)).frames
    .filter((f: { type: string }) => f.type === 'PUSH_RESULT'));
  const row = (await storage.getRow('acme', 'tasks', 't1')) ? 'written' : 'unwritten';
  console.log(`ACTUAL (${key}, stored ${text}):\n  getPushResult ${read}\n  processPushCommit ${push}`
    + `\n  handleSyncRequest ${wire}\n  row t1 ${row}`);
  const miss = row === 'unwritten' && frame?.status === 'rejected' && frame.results.length === 1
    && frame.results[0].code === 'sync.idempotency_cache_miss' && frame.results[0].retryable === true;
  if (!miss) bug = true;
}
console.log(bug ? 'BUG: an unreadable stored result was served as a valid outcome' : 'OK: unreadable results are cache misses');
process.exit(bug ? 1 : 0);
