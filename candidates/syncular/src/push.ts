/**
 * push.run (docs/driver-protocol.md "push") through upstream's real pipeline:
 * `processPushCommitWithTrace` of push.ts, on the storage the harness opened, with the host
 * configuration a `SyncRequestContext` (context.ts) carries:
 * - `clock`: `() => nowMs` — upstream reads the commit's `createdAtMs` and the stored result's
 *   `recordedAtMs` from it;
 * - `validators`: one per table in `callbacks.rowValidators`, each asking the harness
 *   (`validate_row`) and turning its verdict into what a host validator does (validators.ts);
 * - `commitValidator` when `callbacks.commitValidator` (`validate_commit`); while it waits,
 *   `push.read_row` / `push.scan_rows` read through upstream's `CommitValidationReader`;
 * - `realtime` when `callbacks.notify`: its `notifyCommit` sends `notify`.
 * The actor's scopes are upstream's `ResolvedScopes` (scopes.ts): `null` is `{ ok: false }`,
 * what the handler passes when the host's resolver threw.
 * `cacheIdentity` cannot be given: push.ts `newStoredPushResult` mints
 * `crypto.randomUUID()` itself and takes no host value, so the parameter is not used.
 */
import { badRequest, unsupported, upstreamCall } from './errors';
import type { Call, Method } from './protocol';
import { refuseRequest } from './push-request';
import { type CommitReaders, readerMethods } from './push-readers';
import { serverSchemaFromWire } from './schema-json';
import { changeToWire, recordsToWire } from './stored';
import type { OpenStorage, Storages } from './storages';
import { commitValidator, rowValidator } from './validators';
import { boolean, bytes, integer, isObject, object, type Params, text, textValue } from './wire';
import { setOwn } from './own-keys';

/** The actor's allowed scopes as upstream's `ResolvedScopes`. */
export function resolvedScopes(actor: Params): Params {
  const allowed = actor.allowedScopes;
  if (allowed === null) return { ok: false };
  if (!isObject(allowed)) throw badRequest('actor.allowedScopes: expected a scope map or null');
  const scopes: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(allowed)) {
    if (!Array.isArray(values)) throw badRequest(`allowedScopes.${key}: expected an array`);
    setOwn(scopes, key, values.map((v, i) => textValue(v, `allowedScopes.${key}[${i}]`)));
  }
  return { ok: true, allowed: scopes };
}

/** Wire operations → core `PushOperation`s (absent, not null, for no base version / payload). */
function operationsFromWire(commit: Params): Params[] {
  const operations = commit.operations;
  if (!Array.isArray(operations)) throw badRequest('commit.operations: expected an array');
  return operations.map((operation, i) => {
    if (!isObject(operation)) throw badRequest(`operations[${i}]: expected an object`);
    return {
      table: text(operation, 'table'),
      rowId: text(operation, 'rowId'),
      op: text(operation, 'op'),
      ...(operation.baseVersion !== null && operation.baseVersion !== undefined ? { baseVersion: integer(operation, 'baseVersion') } : {}),
      ...(operation.payload !== null && operation.payload !== undefined ? { payload: bytes(operation, 'payload') } : {}),
    };
  });
}

/** A `PushResultFrame` with its trace → the protocol's PUSH_RESULT. */
export function pushResultToWire(processed: Params): Params {
  const frame = processed.frame as Params;
  return {
    status: frame.status,
    commitSeq: frame.commitSeq ?? null,
    results: recordsToWire(frame.results, 'PUSH_RESULT'),
    replayed: processed.replayed === true,
  };
}

/**
 * The storage as the pipeline sees it: upstream's own object, except that the transaction
 * `begin` opens is kept for push.read_row / push.scan_rows. Every call reaches upstream's
 * storage unchanged.
 */
export function observedStorage(storage: object, onBegin: (tx: unknown) => void): object {
  return new Proxy(storage, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'begin') {
        return async (...args: unknown[]) => {
          const tx = await value.apply(target, args);
          onBegin(tx);
          return tx;
        };
      }
      return value.bind(target);
    },
  });
}

/** The `SyncRequestContext` of one request, from push.run's (or command.run's) params. */
export function requestContext(
  params: Params,
  call: Call,
  readers: CommitReaders,
  storage: object,
  compiled: Params,
  serverSchema: Params,
  upstream: Params,
): Params {
  const actor = object(params, 'actor');
  const callbacks = object(params, 'callbacks');
  if (boolean(callbacks, 'hooks', false)) throw unsupported('push hooks: upstream has no hook points (pushHooks false)');
  const nowMs = integer(params, 'nowMs');
  const partition = text(actor, 'partition');
  const actorId = text(actor, 'actorId');
  const tables = (compiled.tables as Map<string, Params>) ?? new Map();
  const rowValidators = Array.isArray(callbacks.rowValidators) ? callbacks.rowValidators.map((t, i) => textValue(t, `rowValidators[${i}]`)) : [];
  const validators: Record<string, unknown> = {};
  for (const table of rowValidators) setOwn(validators, table, rowValidator(upstream, call, tables));
  let tx: unknown;
  return {
    schema: serverSchema,
    storage: observedStorage(storage, (begun) => {
      tx = begun;
    }),
    segments: undefined,
    resolveScopes: () => {
      throw new Error('the driver resolves scopes per request (actor.allowedScopes)');
    },
    clock: () => nowMs,
    ...(rowValidators.length > 0 ? { validators } : {}),
    ...(boolean(callbacks, 'commitValidator', false)
      ? { commitValidator: commitValidator(upstream, call, tables, readers, () => tx) }
      : {}),
    ...(boolean(callbacks, 'notify', false)
      ? {
          realtime: {
            // A harness error answer is the host's notifier throwing: it is thrown to upstream.
            notifyCommit: async (notifiedPartition: string, commit: Params) => {
              await call.callHarness('notify', {
                partition: notifiedPartition,
                commitSeq: commit.commitSeq,
                createdAtMs: commit.createdAtMs,
                actorId: commit.actorId,
                changes: (commit.changes as Params[]).map(changeToWire),
              });
            },
          },
        }
      : {}),
    partition,
    actorId,
  };
}

/**
 * The schema a push.run or command.run runs under (capability `ensuredSchema`): the one the
 * request carries (a harness before version 2, sixth revision), else the one the storage's last
 * successful ensure_schema compiled, as a host pushes under its configuration; before any, a
 * schema with no table.
 */
export async function pushSchema(
  params: Params,
  entry: OpenStorage,
  upstream: Params,
): Promise<{ serverSchema: Params; compiled: Params }> {
  if (params.schema === undefined && entry.serverSchema !== undefined) {
    return { serverSchema: entry.serverSchema, compiled: entry.compiled };
  }
  const serverSchema =
    params.schema === undefined ? { version: 1, tables: [] } : serverSchemaFromWire(object(params, 'schema'));
  return { serverSchema, compiled: await upstreamCall(() => upstream.compileSchema(serverSchema)) };
}

export function pushMethods(storages: Storages, readers: CommitReaders): Map<string, Method> {
  const upstream = storages.upstream;

  const run: Method = async (params, call) => {
    const entry = storages.get(params);
    const commit = object(params, 'commit');
    const clientId = text(commit, 'clientId');
    const clientCommitId = text(commit, 'clientCommitId');
    const operations = operationsFromWire(commit);
    refuseRequest({ clientId, clientCommitId, operations }, integer(params, 'maxOperationsPerRequest'), upstream.REMOTE_COMMAND_CLIENT_ID_PREFIX);
    const { serverSchema, compiled } = await pushSchema(params, entry, upstream);
    const ctx = requestContext(params, call, readers, entry.storage, compiled, serverSchema, upstream);
    // A D1 storage's push runs in its partition's queue, as a Durable Object takes it.
    const processed = await entry.serialize(ctx.partition as string, () =>
      upstreamCall(() =>
        upstream.processPushCommitWithTrace(ctx, compiled, resolvedScopes(object(params, 'actor')), clientId, {
          type: 'PUSH_COMMIT',
          clientCommitId,
          operations,
        }),
      ),
    );
    return pushResultToWire(processed);
  };

  return new Map<string, Method>([['push.run', run], ...readerMethods(readers, upstream)]);
}
