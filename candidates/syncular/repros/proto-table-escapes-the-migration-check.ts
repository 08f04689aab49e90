// Bug: a table named `__proto__` vanishes from the stored layouts, so a schema
//   bump that appends a non-nullable column to it is accepted, where the same
//   bump of any other table is refused. (With rows present, a nullable append
//   skips the payload rewrite and the stored rows stop decoding.)
// Breaks: the release's migration rule, relational-rows.ts
//   assertAppendOnlyMigration ("only appending nullable columns is supported",
//   unchanged by the 0.22 diff); the suite's INV-7 (0.22). No SPEC keyword.
// Upstream: relational-rows.ts layoutsOf builds a plain object, and
//   `out[table.name] = …` with the name `__proto__` calls Object.prototype's
//   setter instead of adding a key; at the bump, `layouts[table.name]` reads
//   Object.prototype, whose undefined `length` passes every append-only check.
//   compileSchema accepts the name (core relational-identifier.ts).
// Run: SYNCULAR_SRC=…/packages/server/src bun run proto-table-escapes-the-migration-check.ts
//   Exit 1 = bug shows, 0 = fixed.
import { SYNCULAR_SRC } from './upstream-src.ts';
const S = SYNCULAR_SRC;
const { compileSchema } = await import(`${S}/schema.ts`);
const { layoutsOf } = await import(`${S}/relational-rows.ts`);
const { SqliteServerStorage } = await import(`${S}/sqlite-storage.ts`);
const { BunSqliteDatabase } = await import(`${S}/sqlite-bun-driver.ts`);

const id = { name: 'id', type: 'string', nullable: false };
const title = { name: 'title', type: 'json', nullable: false };
const table = (name: string, columns: object[]) => ({ name, columns, primaryKey: 'id', scopes: ['k:{id}'] });

// Startup at version 1, then a bump to 2 that appends a non-nullable column.
async function bumpAccepted(name: string): Promise<boolean> {
  const db = new BunSqliteDatabase(':memory:');
  await new SqliteServerStorage(db).ensureSchema(compileSchema({ version: 1, tables: [table(name, [id])] }));
  try {
    await new SqliteServerStorage(db).ensureSchema(compileSchema({ version: 2, tables: [table(name, [id, title])] }));
    return true;
  } catch (error) {
    console.log(`${name}: refused: ${(error as Error).message}`);
    return false;
  }
}

console.log('EXPECTED: the bump of table __proto__ is refused, as the bump of table items is');
console.log('(layoutsOf, table __proto__, version 1 =', layoutsOf(compileSchema({ version: 1, tables: [table('__proto__', [id])] })) + ')');
const control = await bumpAccepted('items');
const proto = await bumpAccepted('__proto__');
if (control) {
  console.log('the control bump was accepted: this upstream no longer refuses a non-nullable append');
  process.exit(2);
}
console.log(`ACTUAL: the bump of table __proto__ is ${proto ? 'accepted' : 'refused'}`);
if (proto) console.log('BUG: a non-nullable column was appended: the append-only check never saw the table');
process.exit(proto ? 1 : 0);
