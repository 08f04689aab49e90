/**
 * command.run (docs/driver-protocol.md "command.run", capability `commands`) through upstream's
 * remote-operation endpoint: the request is encoded with core's
 * `encodeRemoteOperationRequest` (remote-operations.ts) and handed to server
 * `handleRemoteOperation` (operations.ts) with a registry holding the declared command,
 * registered by `registerRemoteCommand`; the response bytes are decoded with core's
 * `decodeRemoteOperationResponse`. Upstream does every check, lookup and the push itself.
 * The host context is push.ts's `requestContext`; the scope resolver answers the actor's
 * `allowedScopes`, and throws when they are `null` (the host's resolver threw).
 */
import { badRequest, ProtocolError, upstreamCall } from './errors';
import type { Method } from './protocol';
import { observedStorage, pushSchema, requestContext } from './push';
import type { CommitReaders } from './push-readers';
import { recordsToWire } from './stored';
import type { Storages } from './storages';
import { boolean, isObject, nullableText, object, type Params, text } from './wire';

type Row = Record<string, unknown>;
interface CommandContext {
  getRow(table: string, rowId: string): Promise<Row | undefined>;
}

/** The declared vocabulary: what each kind's registered `run` does over `tasks`. */
function declaredRun(kind: string, rowId: string, project: string) {
  return async (ctx: CommandContext): Promise<unknown[]> => {
    switch (kind) {
      case 'increment': {
        const row = await ctx.getRow('tasks', rowId);
        const values = row ?? { id: rowId, project_id: project, title: '0', done: false };
        return [{ table: 'tasks', op: 'upsert', values: { ...values, title: String(Number(values.title) + 1) } }];
      }
      case 'move': {
        const row = await ctx.getRow('tasks', rowId);
        return row === undefined ? [] : [{ table: 'tasks', op: 'upsert', values: { ...row, project_id: project } }];
      }
      case 'throw':
        throw new Error('the declared command throws');
      case 'no-mutations':
        return [];
      case 'unknown-table':
        return [{ table: 'no_such_table', op: 'upsert', values: { id: rowId } }];
      case 'empty-row-id':
        return [{ table: 'tasks', op: 'delete', rowId: '' }];
      case 'partial-row':
        return [{ table: 'tasks', op: 'upsert', values: { id: rowId, project_id: project } }];
      case 'read-unknown-table':
        await ctx.getRow('no_such_table', rowId);
        return [];
      default:
        throw badRequest(`command.kind: unknown kind ${kind}`);
    }
  };
}

export function commandMethods(storages: Storages, readers: CommitReaders): Map<string, Method> {
  const upstream = storages.upstream;

  const run: Method = async (params, call) => {
    const entry = storages.get(params);
    const request = object(params, 'request');
    const operationId = text(request, 'operationId');
    const command = params.command;
    const authorized = boolean(params, 'authorized');
    const registered: unknown[] = [];
    if (isObject(command)) {
      const kind = text(command, 'kind');
      registered.push(
        upstream.registerRemoteCommand(upstream.remoteCommand(operationId === '' ? '-' : operationId), {
          authorize: () => authorized,
          run: declaredRun(kind, text(command, 'rowId'), text(command, 'project')),
        }),
      );
    }
    const registry = new upstream.RemoteOperationRegistry(
      // An empty operationId cannot be registered (upstream refuses the id); the request then
      // names an operation the registry lacks, and upstream refuses the empty id first.
      operationId === '' ? [] : registered,
    );
    const { serverSchema, compiled } = await pushSchema(params, entry, upstream);
    const actor = object(params, 'actor');
    let minted = false;
    const ctx = requestContext(params, call, readers, entry.storage, compiled, serverSchema, upstream);
    const allowed = actor.allowedScopes;
    const commandCtx = {
      ...ctx,
      // Whether this call stored an outcome: upstream's command response does not say whether
      // it replayed one, which PUSH_RESULT's `replayed` needs.
      storage: observedStorage(ctx.storage as object, (tx) => {
        const t = tx as Record<string, unknown>;
        for (const name of ['putPushResult', 'commitRejectedPushResult']) {
          const original = t[name] as (...a: unknown[]) => Promise<unknown>;
          if (typeof original === 'function') {
            t[name] = async (...args: unknown[]) => {
              minted = true;
              return original.apply(tx, args);
            };
          }
        }
      }),
      resolveScopes: () => {
        if (allowed === null) throw new Error('the host scope resolver threw');
        return allowed;
      },
    };
    const bytes = upstream.core.encodeRemoteOperationRequest({
      revision: 1,
      kind: 'command',
      clientId: text(request, 'clientId'),
      operationId,
      requestId: nullableText(request, 'requestId') ?? '',
      params: null,
    });
    const response = upstream.core.decodeRemoteOperationResponse(
      await entry.serialize(ctx.partition as string, () =>
        upstreamCall(() => upstream.handleRemoteOperation(bytes, commandCtx, registry)),
      ),
    ) as Params;
    if (response.kind === 'error') {
      const code = String(response.code);
      if (code === 'sync.invalid_client_id') throw new ProtocolError('ssp.push_request_refused', String(response.message), { code });
      if (code.startsWith('operation.')) throw new ProtocolError('ssp.operation_refused', String(response.message), { code });
      throw new ProtocolError('ssp.storage_error', `upstream answered ${code}: ${String(response.message)}`);
    }
    return {
      status: response.status,
      commitSeq: response.commitSeq ?? null,
      results: recordsToWire(response.results, 'command'),
      replayed: response.status === 'cached' || (response.status === 'rejected' && !minted),
    };
  };

  return new Map<string, Method>([['command.run', run]]);
}
