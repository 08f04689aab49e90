// Bug: over Bun.SQL, a push whose PostgreSQL connection is gone when upstream
//   opens its transaction (PG refuses the reconnect) never settles:
//   Bun's sql.begin rejects without calling the callback, and
//   PostgresServerStorage.begin awaits a `ready` promise only that callback
//   resolves. (A connection killed *inside* the open transaction, case A, does settle.)
// SPEC: SPEC.md §1.6 lines 440-442 (every response ends with END, after at most
//   one ERROR): a push that never settles yields neither. No SPEC sentence names
//   storage outages; this is mainly an availability bug (a parked request).
// Upstream: packages/server/src/postgres-storage.ts:1099-1129 (begin: `await ready` at :1127
//   with no path for a rejected `done`), push.ts:904 (`await storage.begin`).
//   The executor over Bun.SQL is ../src/bun-sql-executor.ts (upstream ships none in src/).
// Run: scripts/with-postgres env SYNCULAR_SRC=…/packages/server/src \
//        bun run postgres-push-hangs-when-its-connection-drops.ts   (exit 1 = a push never settled)
import { SYNCULAR_SRC } from './upstream-src.ts';
import { bunSqlExecutor } from '../src/bun-sql-executor.ts';
const S = SYNCULAR_SRC;
const srv = await import(`${S}/index-bun.ts`);
const core = await import(Bun.resolveSync('@syncular/core', S));
const dsn = process.env.SSP_PG_DSN ?? '', u = dsn.includes('://') ? new URL(dsn) : undefined;
const kv = u ? { host: u.hostname, port: u.port, user: u.username, dbname: u.pathname.slice(1) }
  : Object.fromEntries(dsn.split(/\s+/).filter(Boolean).map((p) => p.split('=', 2)));
let closed = () => {};
const open = (app: string, user: string) => new Bun.SQL({ hostname: kv.host, port: Number(kv.port), username: user,
  database: kv.dbname, max: 1, connection: { application_name: app }, onclose: () => app === 'syncular-push' && closed() });
const admin = open('repro-admin', kv.user);
await admin`DROP ROLE IF EXISTS pusher`;
await admin`CREATE ROLE pusher LOGIN SUPERUSER`;
const columns = [{ name: 'id', type: 'string', nullable: false }, { name: 'project_id', type: 'string', nullable: false }];
const schema = { version: 1, tables: [{ name: 'tasks', columns, primaryKey: 'id', scopes: ['project:{project_id}'] }] };
const compiled = srv.compileSchema(schema);
const storage = new srv.PostgresServerStorage(bunSqlExecutor(open('syncular-push', 'pusher')));
await storage.ensureSchema(compiled);
// Kill the push's backend; order on the driver's own onclose, never on a sleep.
const kill = async () => {
  const dropped = new Promise<void>((r) => (closed = r));
  await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'syncular-push'`;
  await dropped;
};
const unhandled: string[] = [];
process.on('unhandledRejection', (e: any) => unhandled.push(`${e?.code}: ${e?.message}`));
const push = (st: unknown, hooks: object, key: string) => Promise.race([
  srv.processPushCommit({ storage: st, partition: 'acme', actorId: 'u', schema, resolveScopes: () => ({ project_id: ['*'] }), ...hooks },
    compiled, { ok: true, allowed: { project_id: ['*'] } }, 'c1', { type: 'PUSH_COMMIT', clientCommitId: key,
      operations: [{ table: 'tasks', rowId: key, op: 'upsert', payload: core.encodeRow(columns, [key, 'p1']) }] })
    .then((f: any) => `resolved ${f.status}`, (e: any) => `rejected with ${e?.code} ${e?.errno ?? ''}: ${e?.message}`),
  new Promise<string>((r) => setTimeout(() => r('never settled (10 s watchdog)'), 10_000).unref())]);

// A: the backend dies while a row validator awaits host I/O inside the open transaction.
let reached!: () => void, release!: () => void;
const parked = new Promise<void>((r) => (reached = r));
const gate = new Promise<void>((r) => (release = r));
const a = push(storage, { validators: { tasks: async () => { reached(); await gate; } } }, 'a1');
await parked; await kill(); release();
const actualA = await a;
// B: the backend dies after the optimistic idempotency read, before BEGIN, and PG refuses the reconnect.
const hooked = new Proxy(storage, { get: (t, p) => p !== 'getPushResult' ? (typeof t[p] === 'function' ? t[p].bind(t) : t[p])
  : async (...args: any[]) => { const r = await t.getPushResult(...args);
      await admin`ALTER ROLE pusher NOLOGIN`; await kill(); return r; } });
const actualB = await push(hooked, {}, 'b1');
const [{ n }] = await admin`SELECT count(*)::int AS n FROM sync_commits`;
console.log('EXPECTED: A: processPushCommit rejects with an error; B: processPushCommit rejects with an error');
console.log(`ACTUAL: A: processPushCommit ${actualA}; B: processPushCommit ${actualB}`);
console.log(`(sync_commits rows: ${n}; unhandled rejections: ${unhandled.join(' | ') || 'none'})`);
process.exit(actualA.startsWith('never') || actualB.startsWith('never') ? 1 : 0);
