/**
 * Error answers of the driver protocol (docs/driver-protocol.md, "Errors"), and the one place
 * where something upstream threw becomes one of them.
 */

/** An error answer: `{"code", "message", "data"?}`. */
export class ProtocolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ProtocolError('ssp.bad_request', message);
export const unsupported = (message: string) => new ProtocolError('ssp.unsupported', message);
export const invalidArgument = (message: string) => new ProtocolError('ssp.invalid_argument', message);

/** `ssp.invalid_result`: upstream answered something the method's result cannot hold. */
export const invalidResult = (message: string, raw: unknown) =>
  new ProtocolError('ssp.invalid_result', message, { raw: typeof raw === 'string' ? raw : safeJson(raw) });

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v) =>
      v instanceof Uint8Array ? { $bytes: Buffer.from(v).toString('base64') } : typeof v === 'bigint' ? String(v) : v,
    );
  } catch {
    return String(value);
  }
}

/** A backend's own failure (bun:sqlite's SQLiteError, Bun.SQL's PostgresError / SQLError). */
function isDatabaseError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'SQLiteError' ||
    error.name === 'PostgresError' ||
    error.name === 'SQLError' ||
    (typeof code === 'string' && (code.startsWith('SQLITE_') || code.startsWith('ERR_POSTGRES')))
  );
}

function databaseMessage(error: Error): string {
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  const tags = [code, errno].filter((t) => typeof t === 'string' || typeof t === 'number');
  return `${error.name}${tags.length > 0 ? ` (${tags.join(' ')})` : ''}: ${error.message}`;
}

/**
 * What escaped a segment-store call (or the driver), as the protocol's error. Upstream has no
 * typed errors on these paths, so the translation reads what it does throw:
 * - bun:sqlite's `SQLiteError` (a busy database, a constraint, I/O), Bun.SQL's `PostgresError`
 *   → `ssp.storage_error`;
 * - the 0.22 stores' `Error("…: content-address collision at <id> (§5.1)")`
 *   (segment-store.ts MemorySegmentStore.put, sqlite-segment-store.ts put) →
 *   `ssp.segment_collision` with that id;
 * - anything else → `ssp.internal` (the driver did not expect it), with upstream's message.
 */
export function translateUpstreamError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof Error) {
    if (isDatabaseError(error)) return new ProtocolError('ssp.storage_error', databaseMessage(error));
    const collision = /content-address collision at (\S+) \(§5\.1\)/.exec(error.message);
    if (collision !== null) {
      return new ProtocolError('ssp.segment_collision', error.message, {
        segmentId: collision[1],
      });
    }
    return new ProtocolError('ssp.internal', `${error.name}: ${error.message}`);
  }
  return new ProtocolError('ssp.internal', `non-Error thrown: ${String(error)}`);
}

/** The class and fields of what upstream threw, by name: upstream's classes are loaded at run time. */
interface Thrown {
  name?: string;
  message?: string;
  code?: unknown;
  opIndex?: unknown;
}

const UNKNOWN_TABLE = /^unknown table ("(?:[^"\\]|\\.)*") — ensureSchema\(schema\) must run before row operations$/;

/**
 * What escaped a call into upstream's server storage or push pipeline (storage.ts,
 * sqlite-storage.ts, postgres-storage.ts, push.ts), as the protocol's error:
 * - `StorageConstraintError` (storage-errors.ts) → `ssp.constraint_violation`, its `opIndex`;
 * - `StorageQueryError` (storage-errors.ts) → `ssp.storage_query_error`, its `code`;
 * - `SyncError` `sync.idempotency_cache_miss` (errors.ts; getPushResult) → `ssp.idempotency_cache_miss`;
 * - `Error("unknown table \"T\" — ensureSchema(schema) must run before row operations")`
 *   (`table()` of both storages) → `ssp.unknown_table`, `data.table` T;
 * - `Error("transaction already finished")` (`#assertOpen` of both transactions) and
 *   `Error("push rejection requires its apply savepoint")` (`commitRejectedPushResult` without
 *   the lock) → `ssp.invalid_argument`;
 * - core's `DecodeError` (row-codec.ts, bytes.ts) → `ssp.row_decode_error` when its message
 *   with the column its message names, `""` for the bitmap/trailing bytes, else `null`
 *   (rowDecodeError);
 * - a database error → `ssp.storage_error`;
 * - anything else upstream threw (a TypeError inside upstream, a plain Error of its own) →
 *   `ssp.storage_error` naming its class: upstream failed, the driver did not.
 */
export function translateStorageError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (!(error instanceof Error)) return new ProtocolError('ssp.storage_error', `upstream threw a non-Error: ${String(error)}`);
  const thrown = error as Thrown;
  if (thrown.name === 'StorageConstraintError') {
    return new ProtocolError('ssp.constraint_violation', error.message, { opIndex: thrown.opIndex ?? null });
  }
  if (thrown.name === 'StorageQueryError') {
    return new ProtocolError('ssp.storage_query_error', error.message, { code: thrown.code });
  }
  if (thrown.name === 'SyncError' && thrown.code === 'sync.idempotency_cache_miss') {
    return new ProtocolError('ssp.idempotency_cache_miss', error.message);
  }
  const unknownTable = UNKNOWN_TABLE.exec(error.message);
  if (unknownTable !== null) {
    return new ProtocolError('ssp.unknown_table', error.message, { table: JSON.parse(unknownTable[1] as string) });
  }
  if (
    error.message === 'transaction already finished' ||
    error.message === 'push rejection requires its apply savepoint' ||
    // The partition registry's refusals (sqlite-storage.ts, postgres-storage.ts).
    error.message === 'initial log epoch must be non-empty' ||
    error.message === 'log epoch must be non-empty'
  ) {
    return new ProtocolError('ssp.invalid_argument', error.message);
  }
  if (thrown.name === 'DecodeError') return rowDecodeError(error);
  if (isDatabaseError(error)) return new ProtocolError('ssp.storage_error', databaseMessage(error));
  return new ProtocolError('ssp.storage_error', `upstream threw ${error.name}: ${error.message}`);
}

/**
 * Core's `DecodeError` from the row codec as `ssp.row_decode_error` with `data.column`. Upstream
 * names the column in some messages only (row-codec.ts: "null bit set for non-nullable column
 * C", "json column C does not parse as a JSON document"); "non-zero padding bit in row null
 * bitmap" and "trailing bytes" (bytes.ts expectFullyConsumed) are the bitmap and trailing
 * bytes, `""`. Any other message (a truncated value, invalid UTF-8, a bad BlobRef, an unsafe
 * integer) does not say which column failed: `data.column` is `null` (protocol 2, third
 * revision), never a column the driver guessed.
 */
export function rowDecodeError(error: Error): ProtocolError {
  const message = error.message;
  const named = /^(?:null bit set for non-nullable column (.+)|json column (.+) does not parse as a JSON document)$/.exec(message);
  if (named !== null) return new ProtocolError('ssp.row_decode_error', message, { column: named[1] ?? named[2] });
  if (/padding bit|trailing|fully consumed/i.test(message)) {
    return new ProtocolError('ssp.row_decode_error', message, { column: '' });
  }
  return new ProtocolError('ssp.row_decode_error', message, { column: null });
}

/** Runs a call into upstream storage; what escapes it is translated by translateStorageError. */
export async function upstreamCall<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translateStorageError(error);
  }
}
