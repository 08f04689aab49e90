/**
 * The raw push transaction (docs/driver-protocol.md "transactions"), one upstream
 * `StorageTransaction` call (storage.ts) per request: `storage.begin` is `ServerStorage.begin`,
 * each `tx.*` the method of the same name. A call that waits on a database lock is an awaited
 * promise, so the process keeps reading and serving other requests meanwhile — except where
 * upstream's adapter blocks the thread itself (bun:sqlite's busy wait inside `BEGIN
 * IMMEDIATE`, which runs synchronously in SqliteTransaction's constructor).
 */
import { badRequest, upstreamCall } from './errors';
import type { Method } from './protocol';
import { newCommitFromWire, storedResultFromWire, storedResultToWire, storedRowFromWire, storedRowToWire } from './stored';
import type { OpenStorage, Storages } from './storages';
import { integer, nullableText, object, type Params, text } from './wire';
import { scopeFilterOf } from './scope-filter';

export function transactionMethods(storages: Storages): Map<string, Method> {
  let nextHandle = 1;
  /** Transaction handle → the storage that began it (a transaction belongs to its storage). */
  const owners = new Map<number, OpenStorage>();

  // biome-ignore lint/suspicious/noExplicitAny: upstream object
  const txOf = (params: Params): any => {
    const handle = integer(params, 'transaction');
    const tx = owners.get(handle)?.transactions.get(handle);
    if (tx === undefined) throw badRequest(`transaction ${handle} is not open`);
    return tx;
  };

  const begin: Method = async (params) => {
    const entry = storages.get(params);
    const tx = await upstreamCall(() => entry.storage.begin(text(params, 'partition')));
    const handle = nextHandle++;
    entry.transactions.set(handle, tx);
    owners.set(handle, entry);
    return { transaction: handle };
  };

  const step = (run: (tx: ReturnType<typeof txOf>, params: Params) => Promise<unknown>, answer: (value: unknown) => Params = () => ({})): Method =>
    async (params) => {
      const tx = txOf(params);
      return answer(await upstreamCall(() => run(tx, params)));
    };

  const scanQuery = (params: Params) => {
    return { table: text(params, 'table'), scopeFilter: scopeFilterOf(params), afterRowId: nullableText(params, 'afterRowId'), limit: integer(params, 'limit') };
  };

  const close: Method = async (params) => {
    const handle = integer(params, 'transaction');
    const entry = owners.get(handle);
    const tx = entry?.transactions.get(handle);
    if (tx === undefined) throw badRequest(`transaction ${handle} is not open`);
    entry?.transactions.delete(handle);
    owners.delete(handle);
    await upstreamCall(() => tx.rollback()); // a no-op on a finished transaction
    return {};
  };

  return new Map<string, Method>([
    ['storage.begin', begin],
    ['tx.lock_partition_for_push', step((tx) => tx.lockPartitionForPush())],
    [
      'tx.get_push_result',
      step((tx, p) => tx.getPushResult(text(p, 'clientId'), text(p, 'clientCommitId')), (r) => ({ result: storedResultToWire(r as Params) })),
    ],
    ['tx.read_row', step((tx, p) => tx.getRow(text(p, 'table'), text(p, 'rowId')), (r) => ({ row: storedRowToWire(r as Params) }))],
    [
      'tx.scan_rows',
      step((tx, p) => tx.scanRows(scanQuery(p)), (rows) => ({ rows: (rows as Params[]).map((r) => storedRowToWire(r)) })),
    ],
    [
      'tx.upsert_row',
      step((tx, p) => tx.upsertRow(text(p, 'table'), storedRowFromWire(object(p, 'row')), { opIndex: integer(p, 'opIndex') })),
    ],
    ['tx.delete_row', step((tx, p) => tx.deleteRow(text(p, 'table'), text(p, 'rowId')))],
    ['tx.append_commit', step((tx, p) => tx.appendCommit(newCommitFromWire(object(p, 'entry'))), (seq) => ({ commitSeq: seq }))],
    [
      'tx.put_push_result',
      step((tx, p) => tx.putPushResult(text(p, 'clientId'), text(p, 'clientCommitId'), storedResultFromWire(object(p, 'result')))),
    ],
    [
      'tx.commit_rejected_push_result',
      step((tx, p) =>
        tx.commitRejectedPushResult(text(p, 'clientId'), text(p, 'clientCommitId'), storedResultFromWire(object(p, 'result'))),
      ),
    ],
    ['tx.commit', step((tx) => tx.commit())],
    ['tx.rollback', step((tx) => tx.rollback())],
    ['tx.close', close],
  ]);
}

