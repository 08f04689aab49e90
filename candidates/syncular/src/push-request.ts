/**
 * The request-level refusals upstream makes before its push pipeline runs (docs/driver-
 * protocol.md "push.run": `ssp.push_request_refused`). Upstream makes them while decoding the
 * SSP2 request (core message.ts) and planning it (server handler.ts `planRequest`), neither of
 * which the driver can call with a decoded commit, so each rule is restated here in upstream's
 * order, with upstream's code and message, and the line it restates. Nothing else is checked.
 */
import { ProtocolError } from './errors';

const refused = (code: string, message: string) => new ProtocolError('ssp.push_request_refused', message, { code });

export interface RequestShape {
  readonly clientId: string;
  readonly clientCommitId: string;
  readonly operations: readonly { op: string; payload?: unknown }[];
}

/** Throws the refusal upstream would answer for this one-commit request, if any. */
export function refuseRequest(request: RequestShape, maxOperationsPerRequest: number, reservedPrefix: string): void {
  // message.ts decodeReqHeader
  if (request.clientId.length === 0) throw refused('sync.invalid_request', 'REQ_HEADER.clientId must be non-empty');
  // message.ts decodePushCommit
  if (request.clientCommitId.length === 0) throw refused('sync.invalid_request', 'PUSH_COMMIT.clientCommitId must be non-empty');
  if (request.operations.length === 0) throw refused('sync.empty_commit', 'PUSH_COMMIT must carry at least one operation');
  for (const operation of request.operations) {
    if (operation.op === 'upsert' && operation.payload === undefined) throw refused('sync.invalid_request', 'upsert operation requires a payload');
    if (operation.op === 'delete' && operation.payload !== undefined) throw refused('sync.invalid_request', 'delete operation must not carry a payload');
  }
  // handler.ts planRequest (context.ts REMOTE_COMMAND_CLIENT_ID_PREFIX)
  if (request.clientId.startsWith(reservedPrefix)) {
    throw refused('sync.invalid_client_id', 'clientId uses a reserved server-command namespace (§1.5)');
  }
  // handler.ts planRequest: §6.1 operation cap
  if (request.operations.length > maxOperationsPerRequest) {
    throw refused(
      'sync.too_many_operations',
      `request carries ${request.operations.length} operations (cap ${maxOperationsPerRequest}, §6.1)`,
    );
  }
}
