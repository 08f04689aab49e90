/**
 * The storage area (docs/driver-protocol.md "storage") and the storage reads of capability
 * `push` ("storage.get_push_result, storage.get_max_commit_seq, storage.read_commit_window")
 * over upstream's `ServerStorage` (storage.ts). Where upstream has no method for a call the
 * driver reads upstream's own tables by SQL (capability `upstreamTables`), converting each
 * column as upstream's own reader does; sql-reads.ts says which.
 */
import { invalidArgument, upstreamCall } from './errors';
import type { Method } from './protocol';
import { ensureSchemaError } from './schema-refusals';
import { compileWireSchema } from './schema-json';
import { readCommitWindow, readProjection } from './sql-reads';
import { changeToWire, storedResultToWire, storedRowFromWire, storedRowToWire } from './stored';
import { scopeFilterOf } from './scope-filter';
import type { Storages } from './storages';
import { integer, object, type Params, text } from './wire';

export function storageMethods(storages: Storages): Map<string, Method> {
  const upstream = storages.upstream;

  const open: Method = async (params) => ({ storage: await storages.open(params) });

  const close: Method = async (params) => {
    await storages.close(params);
    return {};
  };

  // compileSchema's throws are `ssp.schema_error`; ensureSchema's are refusals or storage
  // errors (schema-refusals.ts). ensureSchema returns void: there is no report to give
  // (capability `schemaReport: false`), so the answer is `{}`.
  const ensureSchema: Method = async (params) => {
    const entry = storages.get(params);
    const { serverSchema, compiled } = compileWireSchema(upstream, object(params, 'schema'));
    try {
      await entry.storage.ensureSchema(compiled);
    } catch (error) {
      throw ensureSchemaError(error);
    }
    entry.compiled = compiled;
    entry.serverSchema = serverSchema;
    return {};
  };

  const getRow: Method = async (params) => {
    const { storage } = storages.get(params);
    const row = await upstreamCall(() => storage.getRow(text(params, 'partition'), text(params, 'table'), text(params, 'rowId')));
    return { row: storedRowToWire(row) };
  };

  // ServerStorage has no single-row write: a host writes through a transaction, so this is
  // begin → upsertRow → commit (rollback if the write throws).
  const upsertRow: Method = async (params) => {
    const { storage } = storages.get(params);
    const row = storedRowFromWire(object(params, 'row'));
    const table = text(params, 'table');
    const tx = await upstreamCall(() => storage.begin(text(params, 'partition')));
    try {
      await upstreamCall(() => tx.upsertRow(table, row));
      await upstreamCall(() => tx.commit());
    } catch (error) {
      await tx.rollback().catch(() => undefined);
      throw error;
    }
    return {};
  };

  const readProjectionMethod: Method = async (params) => {
    const entry = storages.get(params);
    const table = await upstreamCall(() => entry.storage.table(text(params, 'table')));
    if (!table.materialize) throw invalidArgument(`table ${table.name} is not materialized`);
    return { values: await readProjection(entry, table, text(params, 'partition'), text(params, 'rowId')) };
  };

  const getPushResult: Method = async (params) => {
    const { storage } = storages.get(params);
    const result = await upstreamCall(() =>
      storage.getPushResult(text(params, 'partition'), text(params, 'clientId'), text(params, 'clientCommitId')),
    );
    return { result: storedResultToWire(result) };
  };

  const getMaxCommitSeq: Method = async (params) => {
    const { storage } = storages.get(params);
    return { commitSeq: await upstreamCall(() => storage.getMaxCommitSeq(text(params, 'partition'))) };
  };

  // Pull's read (version 3): upstream's own readCommitWindow, its commits and changes as the
  // protocol writes them.
  const readTableWindow: Method = async (params) => {
    const { storage } = storages.get(params);
    const commits: Params[] = await upstreamCall(() =>
      storage.readCommitWindow(text(params, 'partition'), {
        table: text(params, 'table'),
        scopeFilter: scopeFilterOf(params),
        afterSeq: integer(params, 'afterSeq'),
        throughSeq: integer(params, 'throughSeq'),
        limitChanges: integer(params, 'limitChanges'),
      }),
    );
    return {
      commits: commits.map((commit) => ({
        commitSeq: commit.commitSeq,
        createdAtMs: commit.createdAtMs,
        actorId: commit.actorId,
        changes: (commit.changes as Params[]).map(changeToWire),
      })),
    };
  };

  // The partition registry (version 3): upstream's touchPartition, rotatePartitionLogEpoch and
  // listPartitionRegistry. This upstream has no getPartitionLogEpoch (0.21's): the epoch is
  // read from the list, which refreshes nothing either.
  const entryToWire = (entry: Params) => ({
    partition: entry.partition,
    logEpoch: entry.logEpoch,
    epochRequired: entry.epochRequired,
    lastAuthenticatedAtMs: entry.lastAuthenticatedAtMs,
  });
  const touchPartition: Method = async (params) => {
    const { storage } = storages.get(params);
    const entry = await upstreamCall(() =>
      storage.touchPartition(text(params, 'partition'), integer(params, 'authenticatedAtMs'), text(params, 'initialLogEpoch')),
    );
    return { entry: entryToWire(entry) };
  };
  const rotatePartitionLogEpoch: Method = async (params) => {
    const { storage } = storages.get(params);
    const entry = await upstreamCall(() =>
      storage.rotatePartitionLogEpoch(text(params, 'partition'), text(params, 'logEpoch'), integer(params, 'atMs')),
    );
    return { entry: entryToWire(entry) };
  };
  const listPartitionRegistry: Method = async (params) => {
    const { storage } = storages.get(params);
    const entries: Params[] = await upstreamCall(() => storage.listPartitionRegistry());
    return { entries: entries.map(entryToWire) };
  };
  const getPartitionLogEpoch: Method = async (params) => {
    const { storage } = storages.get(params);
    const partition = text(params, 'partition');
    const entries: Params[] = await upstreamCall(() => storage.listPartitionRegistry());
    return { logEpoch: entries.find((entry) => entry.partition === partition)?.logEpoch ?? null };
  };

  const readCommitWindowMethod: Method = async (params) => {
    const entry = storages.get(params);
    return {
      commits: await readCommitWindow(entry, upstream, text(params, 'partition'), integer(params, 'afterSeq'), integer(params, 'limit')),
    };
  };

  return new Map<string, Method>([
    ['storage.open', open],
    ['storage.close', close],
    ['storage.ensure_schema', ensureSchema],
    ['storage.get_row', getRow],
    ['storage.upsert_row', upsertRow],
    ['storage.read_projection', readProjectionMethod],
    ['storage.get_push_result', getPushResult],
    ['storage.get_max_commit_seq', getMaxCommitSeq],
    ['storage.read_commit_window', readCommitWindowMethod],
    ['storage.read_table_window', readTableWindow],
    ['storage.touch_partition', touchPartition],
    ['storage.rotate_partition_log_epoch', rotatePartitionLogEpoch],
    ['storage.get_partition_log_epoch', getPartitionLogEpoch],
    ['storage.list_partition_registry', listPartitionRegistry],
  ]);
}
