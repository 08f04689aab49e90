/**
 * Upstream's stored shapes (storage.ts: `StoredRow`, `StoredPushResult`, `NewCommit`, the
 * `PushOperationResult` records of core's message.ts) ↔ the protocol's stored row, stored
 * result, result record and commit entry (docs/driver-protocol.md "push", Shapes). Field names
 * are upstream's; the differences are `undefined` ↔ `null`, bytes ↔ base64, and a validator's
 * `details` object ↔ its JSON text. A stored value upstream hands back that the protocol's
 * shape cannot hold is `ssp.invalid_result` with the value, never repaired.
 */
import { badRequest, invalidResult } from './errors';
import { bytes, integer, isObject, nullableText, type Params, text, textValue, toBase64 } from './wire';
import { setOwn } from './own-keys';

function nullableInteger(params: Params, field: string): number | undefined {
  const value = params[field];
  return value === null || value === undefined ? undefined : integer(params, field);
}

function scopesFromWire(value: unknown, field: string): Record<string, string> {
  if (!isObject(value)) throw badRequest(`${field}: expected an object`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) setOwn(out, key, textValue(v, `${field}.${key}`));
  return out;
}

/** Wire stored row → `StoredRow`. */
export function storedRowFromWire(row: Params): Params {
  return {
    rowId: text(row, 'rowId'),
    serverVersion: integer(row, 'serverVersion'),
    scopes: scopesFromWire(row.scopes, 'scopes'),
    payload: bytes(row, 'payload'),
  };
}

/** `StoredRow | undefined` → wire stored row or null. */
export function storedRowToWire(row: Params | undefined): Params | null {
  if (row === undefined || row === null) return null;
  const { rowId, serverVersion, scopes, payload } = row as Record<string, unknown>;
  if (
    typeof rowId !== 'string' ||
    typeof serverVersion !== 'number' ||
    !isObject(scopes) ||
    !Object.values(scopes).every((v) => typeof v === 'string') ||
    !(payload instanceof Uint8Array)
  ) {
    throw invalidResult('upstream returned a stored row the protocol cannot hold', row);
  }
  return { rowId, serverVersion, scopes, payload: toBase64(payload) };
}

/** Wire result record → core `PushOperationResult`. */
function recordFromWire(record: unknown, at: string): Params {
  if (!isObject(record)) throw badRequest(`${at}: expected an object`);
  const status = text(record, 'status');
  const opIndex = integer(record, 'opIndex');
  if (status === 'applied') return { opIndex, status };
  if (status === 'conflict') {
    return {
      opIndex, status, code: text(record, 'code'), message: text(record, 'message'),
      serverVersion: integer(record, 'serverVersion'), serverRow: bytes(record, 'serverRow'),
    };
  }
  if (status === 'error') {
    const details = nullableText(record, 'details');
    return {
      opIndex, status, code: text(record, 'code'), message: text(record, 'message'),
      retryable: record.retryable === true,
      ...(details !== null ? { details: parseDetails(details) } : {}),
    };
  }
  throw badRequest(`${at}.status: ${status}`);
}

/** A validator's details, JSON text on the wire, as the object upstream keeps (RejectionDetails). */
export function parseDetails(details: string): unknown {
  try {
    return JSON.parse(details);
  } catch {
    return details; // not JSON: handed to upstream as the text it is
  }
}

/** Wire stored result → `StoredPushResult`. */
export function storedResultFromWire(result: Params): Params {
  const commitSeq = nullableInteger(result, 'commitSeq');
  const recordedAtMs = nullableInteger(result, 'recordedAtMs');
  const cacheIdentity = nullableText(result, 'cacheIdentity');
  const results = result.results;
  if (!Array.isArray(results)) throw badRequest('results: expected an array');
  return {
    status: text(result, 'status'),
    ...(commitSeq !== undefined ? { commitSeq } : {}),
    ...(recordedAtMs !== undefined ? { recordedAtMs } : {}),
    ...(cacheIdentity !== null ? { cacheIdentity } : {}),
    results: results.map((r, i) => recordFromWire(r, `results[${i}]`)),
  };
}

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const optInt = (v: unknown) => v === undefined || isInt(v);

/** Core `PushOperationResult` → wire result record; `null` when the protocol cannot hold it. */
function recordToWire(record: unknown): Params | null {
  if (!isObject(record) || !isInt(record.opIndex)) return null;
  const { opIndex, status, code, message } = record;
  if (status === 'applied') return { opIndex, status };
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  if (status === 'conflict') {
    if (!isInt(record.serverVersion) || !(record.serverRow instanceof Uint8Array)) return null;
    return { opIndex, status, code, message, serverVersion: record.serverVersion, serverRow: toBase64(record.serverRow) };
  }
  if (status === 'error') {
    if (typeof record.retryable !== 'boolean') return null;
    const details = record.details === undefined ? null : JSON.stringify(record.details);
    return { opIndex, status, code, message, retryable: record.retryable, details };
  }
  return null;
}

/** Result records → wire, or `ssp.invalid_result` naming what upstream gave. */
export function recordsToWire(records: unknown, what: string): Params[] {
  const out = Array.isArray(records) ? records.map(recordToWire) : null;
  if (out === null || out.some((r) => r === null)) {
    throw invalidResult(`upstream returned ${what} records the protocol cannot hold`, records);
  }
  return out as Params[];
}

/** `StoredPushResult | undefined` → wire stored result or null. */
export function storedResultToWire(result: Params | undefined): Params | null {
  if (result === undefined || result === null) return null;
  const { status, commitSeq, recordedAtMs, cacheIdentity } = result;
  if (
    (status !== 'applied' && status !== 'rejected') ||
    !optInt(commitSeq) || !optInt(recordedAtMs) ||
    (cacheIdentity !== undefined && typeof cacheIdentity !== 'string')
  ) {
    throw invalidResult('upstream read a stored push result the protocol cannot hold', result);
  }
  return {
    status,
    commitSeq: commitSeq ?? null,
    recordedAtMs: recordedAtMs ?? null,
    cacheIdentity: cacheIdentity ?? null,
    results: recordsToWire(result.results, 'stored result'),
  };
}

/** Wire commit entry → `NewCommit`. */
export function newCommitFromWire(entry: Params): Params {
  const changes = entry.changes;
  if (!Array.isArray(changes)) throw badRequest('changes: expected an array');
  return {
    clientId: text(entry, 'clientId'),
    clientCommitId: text(entry, 'clientCommitId'),
    actorId: text(entry, 'actorId'),
    createdAtMs: integer(entry, 'createdAtMs'),
    changes: changes.map((change, i) => {
      if (!isObject(change)) throw badRequest(`changes[${i}]: expected an object`);
      const rowVersion = nullableInteger(change, 'rowVersion');
      return {
        table: text(change, 'table'),
        rowId: text(change, 'rowId'),
        op: text(change, 'op'),
        ...(rowVersion !== undefined ? { rowVersion } : {}),
        scopes: scopesFromWire(change.scopes, `changes[${i}].scopes`),
        ...(change.payload !== null && change.payload !== undefined ? { payload: bytes(change, 'payload') } : {}),
      };
    }),
  };
}

/** A `NewChange` / `StoredChange` → wire change. */
export function changeToWire(change: Params): Params {
  const payload = change.payload;
  return {
    table: change.table,
    rowId: change.rowId,
    op: change.op,
    rowVersion: change.rowVersion ?? null,
    scopes: change.scopes,
    payload: payload instanceof Uint8Array ? toBase64(payload) : null,
  };
}
