// Bug: with Bun.SQL (the executor upstream's README documents), a unique-index
//   violation in a push is not recognised as a constraint error, so instead of a
//   stored `rejected` commit with `sync.constraint_violation` the push throws
//   Bun's PostgresError (SQLSTATE is in `errno`, `code` is ERR_POSTGRES_SERVER_ERROR).
// Breaks: SPEC.md §10.2 line 4355 (`sync.constraint_violation`: "Server-side data
//   constraint (unique/FK/not-null) rejected the write") and §6.4 lines 2721-2723
//   (a rejected commit does not stop the batch; here the exception ends the request).
// Upstream: packages/server/src/storage-errors.ts:81-85 (isPostgresConstraintError
//   reads only `code`), postgres-storage.ts:681-699 (upsertRow), push.ts:1087/1138
//   (only StorageConstraintError becomes a rejection; anything else is rethrown).
//   The executor over Bun.SQL is ../src/bun-sql-executor.ts (upstream ships none in src/).
// Run: scripts/with-postgres env SYNCULAR_SRC=…/packages/server/src \
//        bun run postgres-unique-violation-escapes.ts      (needs SSP_PG_DSN; exit 1 = bug, 0 = fixed)
import { SYNCULAR_SRC } from './upstream-src.ts';
import { bunSqlExecutor, connect } from '../src/bun-sql-executor.ts';
const S = SYNCULAR_SRC;
const srv = await import(`${S}/index-bun.ts`);
const core = await import(Bun.resolveSync('@syncular/core', S));
const { isPostgresConstraintError } = await import(`${S}/storage-errors.ts`);
const sql = connect();


const columns = [{ name: 'id', type: 'string', nullable: false }, { name: 'project_id', type: 'string', nullable: false },
  { name: 'code', type: 'string', nullable: false }];
const schema = { version: 1, tables: [{ name: 'items', columns, primaryKey: 'id', scopes: ['project:{project_id}'],
  indexes: [{ name: 'items_code', columns: ['code'], unique: true }] }] };
const compiled = srv.compileSchema(schema);
const storage = new srv.PostgresServerStorage(bunSqlExecutor(sql));
await storage.migrate();
await storage.ensureSchema(compiled);
const ctx = { storage, partition: 'acme', actorId: 'u', schema, resolveScopes: () => ({ project_id: ['*'] }) };
const push = (key: string, id: string) => srv.processPushCommit(ctx, compiled, { ok: true, allowed: { project_id: ['*'] } }, 'c1',
  { type: 'PUSH_COMMIT', clientCommitId: key, operations: [
    { table: 'items', rowId: id, op: 'upsert', payload: core.encodeRow(columns, [id, 'p1', 'A']) }] });

const first = await push('k1', 'i1');
let actual: string;
let bug: boolean;
try {
  const f = await push('k2', 'i2');
  actual = `push k2 resolves ${f.status} ${JSON.stringify(f.results.map((r: any) => [r.opIndex, r.status, r.code]))}`;
  bug = !(f.status === 'rejected' && f.results[0]?.code === 'sync.constraint_violation');
} catch (e: any) {
  actual = `push k2 rejects with ${e?.constructor?.name} errno=${e?.errno} code=${e?.code}: ${e?.message}`;
  bug = true;
}
console.log(`(push k1 = ${first.status}; isPostgresConstraintError({code:'ERR_POSTGRES_SERVER_ERROR', errno:'23505'}) = `
  + `${isPostgresConstraintError({ code: 'ERR_POSTGRES_SERVER_ERROR', errno: '23505' })})`);
console.log('EXPECTED: push k2 resolves rejected [[0,"error","sync.constraint_violation"]]');
console.log(`ACTUAL: ${actual}`);
await sql.end();
process.exit(bug ? 1 : 0);
