// Bug: on D1, a schema bump that appends a non-nullable column is refused, but
//   only after its `ALTER TABLE … ADD COLUMN` ran: the refused bump leaves the
//   column in the table, and the stored layouts still say version 1.
// Breaks: the release's migration rule, a refused bump changes nothing (the
//   suite's C-3, 0.22; relational-rows.ts assertAppendOnlyMigration, and
//   d1-storage.ts's own comment that every fallible preparatory step comes
//   before destructive work). No SPEC keyword. SqliteServerStorage refuses the
//   same bump with the table unchanged: the control below.
// Upstream: d1-storage.ts ensureSchema applies the additive DDL statement by
//   statement (D1 has no interactive transaction), then calls rewritePlan,
//   whose assertAppendOnlyMigration throws.
// Run: SYNCULAR_SRC=…/packages/server/src bun run d1-refused-bump-leaves-its-column.ts
//   Exit 1 = bug shows, 0 = fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { D1DatabaseOverSqlite } from '../src/d1-binding.ts';
import { SYNCULAR_SRC } from './upstream-src.ts';
const S = SYNCULAR_SRC;
const { compileSchema } = await import(`${S}/schema.ts`);
const { D1ServerStorage } = await import(`${S}/d1-storage.ts`);
const { SqliteServerStorage } = await import(`${S}/sqlite-storage.ts`);
const { BunSqliteDatabase } = await import(`${S}/sqlite-bun-driver.ts`);

const id = { name: 'id', type: 'string', nullable: false };
const title = { name: 'title', type: 'string', nullable: false };
const items = (version: number, columns: object[]) =>
  compileSchema({ version, tables: [{ name: 'items', columns, primaryKey: 'id', scopes: ['k:{id}'] }] });

function columnsOf(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query('SELECT name FROM pragma_table_info(?)').all('items') as { name: string }[]).map((c) => c.name);
  } finally {
    db.close();
  }
}

// Starts at version 1, then bumps to 2 appending the non-nullable `title`;
// answers whether the bump was refused and the table's columns after it.
type Storage = { ensureSchema(schema: unknown): Promise<void> };
async function refusedBump(storageOn: (path: string) => Promise<Storage>, path: string) {
  await (await storageOn(path)).ensureSchema(items(1, [id]));
  let refusal = '';
  try {
    await (await storageOn(path)).ensureSchema(items(2, [id, title]));
  } catch (error) {
    refusal = (error as Error).message;
  }
  return { refusal, columns: columnsOf(path) };
}

const dir = mkdtempSync(join(tmpdir(), 'd1-refused-bump-'));
try {
  const d1 = await refusedBump(async (path) => {
    const storage = new D1ServerStorage(new D1DatabaseOverSqlite(path, 5000), { pushApplySerialized: true });
    await storage.migrate();
    return storage;
  }, join(dir, 'd1.sqlite'));
  const sqlite = await refusedBump(
    async (path) => new SqliteServerStorage(new BunSqliteDatabase(path)),
    join(dir, 'sqlite.sqlite'),
  );
  console.log(
    'EXPECTED: the bump is refused and items keeps the columns it had, as with SqliteServerStorage',
    `(the control: ${sqlite.refusal ? 'refused' : 'accepted'}, columns [${sqlite.columns.join(', ')}])`,
  );
  if (!sqlite.refusal || !d1.refusal) {
    console.log(`a bump was accepted (D1: ${d1.refusal ? 'refused' : 'accepted'}): this upstream no longer refuses a non-nullable append`);
    process.exit(2);
  }
  const leftover = d1.columns.filter((column) => !sqlite.columns.includes(column));
  console.log(`ACTUAL: D1 refused it ("${d1.refusal}") and items has columns [${d1.columns.join(', ')}]`);
  if (leftover.length > 0) console.log(`BUG: the refused bump left column(s) ${leftover.join(', ')} behind`);
  process.exit(leftover.length > 0 ? 1 : 0);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
