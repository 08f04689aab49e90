// Bug: on upstream's bun:sqlite ServerStorage, storage-level reads (what a pull
//   uses) run on the one shared connection inside an open push transaction, so
//   they see rows of a commit that is later rejected and rolled back.
// Breaks: SPEC.md §6.4 lines 2731-2734 (a pull sees a commit's changes no
//   sooner than its push response could report them; no keyword) and, because
//   this push rolls back, §6.4 MUST#1 line 2727 (no partially applied commit).
// Upstream: packages/server/src/sqlite-storage.ts:150 (BEGIN IMMEDIATE on the
//   shared storage.db), :811-822 getRow and :1105 scanRows read this.db without
//   queuing on #transactionTail (:661-676); push.ts awaits host validators while
//   the transaction holds staged rows.
// Run: SYNCULAR_SRC=…/packages/server/src bun run sqlite-reads-see-an-open-push.ts
//   Exit 1 = bug shows, 0 = fixed.
import { SYNCULAR_SRC } from './upstream-src.ts';
const S = SYNCULAR_SRC;
const srv = await import(`${S}/index-bun.ts`);
const core = await import(Bun.resolveSync('@syncular/core', S));

const columns = [
  { name: 'id', type: 'string', nullable: false },
  { name: 'project_id', type: 'string', nullable: false },
  { name: 'title', type: 'string', nullable: false },
];
const schema = { version: 1, tables: [{ name: 'tasks', columns, primaryKey: 'id', scopes: ['project:{project_id}'] }] };
const compiled = srv.compileSchema(schema);
const storage = new srv.SqliteServerStorage(':memory:');
await storage.ensureSchema(compiled);

// The validator of row t2 parks on `gate` (host I/O, e.g. a lookup), then rejects.
let reached!: () => void;
const validatorReached = new Promise<void>((r) => (reached = r));
let release!: () => void;
const gate = new Promise<void>((r) => (release = r));
const ctx = {
  storage, partition: 'acme', actorId: 'u', schema,
  resolveScopes: () => ({ project_id: ['*'] }),
  validators: {
    tasks: async (op: { row?: Record<string, unknown> }) => {
      if (op.row?.title !== 'bad') return;
      reached();
      await gate;
      throw new srv.ValidationRejection('app.bad', 'rejected by host validator');
    },
  },
};
const up = (id: string, title: string) => ({
  table: 'tasks', rowId: id, op: 'upsert', payload: core.encodeRow(columns, [id, 'p1', title]),
});
const push = srv.processPushCommit(ctx, compiled, { ok: true, allowed: { project_id: ['*'] } }, 'c1', {
  type: 'PUSH_COMMIT', clientCommitId: 'k1', operations: [up('t1', 'ok'), up('t2', 'bad')],
});

await validatorReached; // t1 is staged, the push is open and not yet answered
// Start the reads now but await them only after releasing the gate, so a fixed
// storage whose reads wait for the push does not deadlock this script.
const duringP = storage.getRow('acme', 'tasks', 't1');
const scanP = storage.scanRows('acme', { table: 'tasks', scopeFilter: { project_id: ['p1'] }, afterRowId: null, limit: 100 });
release();
const [during, scan] = await Promise.all([duringP, scanP]);
const frame = await push;
const after = await storage.getRow('acme', 'tasks', 't1');

const rec = frame.results[0];
console.log('EXPECTED: while push k1 is open, getRow(t1) = undefined and scanRows = [] (or the reads wait);'
  + ' push k1 = rejected app.bad; getRow(t1) after = undefined');
console.log(`ACTUAL: while push k1 is open, getRow(t1) = ${during ? `row t1 (serverVersion ${during.serverVersion})` : 'undefined'}`
  + ` and scanRows = [${scan.map((r: { rowId: string }) => r.rowId).join(', ')}];`
  + ` push k1 = ${frame.status} ${rec?.code ?? ''} (opIndex ${rec?.opIndex}); getRow(t1) after = ${after ? 'row t1' : 'undefined'}`);
const bug = frame.status === 'rejected' && after === undefined && (during !== undefined || scan.length > 0);
console.log(bug ? 'BUG: a reader saw row t1 of a commit that never happened' : 'OK: no reader saw the rejected commit');
process.exit(bug ? 1 : 0);
