// Bug: over Bun.SQL, upstream binds pre-stringified JSON to JSONB columns
//   without a cast, Bun JSON-encodes the string again, and sync_changes.scopes
//   holds a jsonb *string* scalar instead of the stored-scope object.
// Breaks: no wire-visible SPEC sentence (upstream's own reads JSON.parse the
//   string back); it breaks the stored scopes of SPEC.md §3.1 lines 765-768 (a
//   map of variable to one string value) as any SQL reader sees them, i.e. the
//   0.22 database layout (suite row D-2).
// Upstream: packages/server/src/postgres-storage.ts:162 (scopes JSONB), :769-782
//   (appendCommit binds JSON.stringify(change.scopes) as $8, no ::jsonb cast),
//   :368-371 (asJson parses a string back, hiding it). Same pattern for
//   sync_push_results.result (:801-811). The executor over Bun.SQL is
//   ../src/bun-sql-executor.ts (upstream ships none in src/).
// Run: scripts/with-postgres env SYNCULAR_SRC=…/packages/server/src \
//        bun run postgres-jsonb-stored-as-string.ts      (needs SSP_PG_DSN; exit 1 = bug, 0 = fixed)
import { SYNCULAR_SRC } from './upstream-src.ts';
import { bunSqlExecutor, connect } from '../src/bun-sql-executor.ts';
const S = SYNCULAR_SRC;
const srv = await import(`${S}/index-bun.ts`);
const sql = connect();


const columns = [{ name: 'id', type: 'string', nullable: false }, { name: 'project_id', type: 'string', nullable: false }];
const compiled = srv.compileSchema({ version: 1, tables: [{ name: 'tasks', columns, primaryKey: 'id', scopes: ['project:{project_id}'] }] });
const storage = new srv.PostgresServerStorage(bunSqlExecutor(sql));
await storage.migrate();
await storage.ensureSchema(compiled);

const tx = await storage.begin('acme');
await tx.lockPartitionForPush();
const seq = await tx.appendCommit({ clientId: 'c1', clientCommitId: 'k1', actorId: 'a', createdAtMs: 1,
  changes: [{ table: 'tasks', rowId: 't1', op: 'delete', scopes: { project_id: 'p1' } }] });
await tx.commit();

const [row] = await sql`SELECT jsonb_typeof(scopes) AS t, scopes::text AS s, scopes->>'project_id' AS v FROM sync_changes`;
const window = await storage.readCommitWindow('acme', { table: 'tasks', scopeFilter: { project_id: ['p1'] },
  afterSeq: 0, throughSeq: seq, limitChanges: 100 });
console.log(`EXPECTED: jsonb_typeof(scopes) = object, scopes::text = {"project_id": "p1"}, scopes->>'project_id' = p1`);
console.log(`ACTUAL: jsonb_typeof(scopes) = ${row.t}, scopes::text = ${row.s}, scopes->>'project_id' = ${row.v}`);
console.log(`(upstream's own readCommitWindow still returns scopes ${JSON.stringify(window[0]?.changes?.[0]?.scopes)})`);
await sql.end();
process.exit(row.t === 'object' ? 0 : 1);
