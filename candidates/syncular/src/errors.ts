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

/**
 * What upstream threw, as the protocol's error. Upstream has no typed errors on these paths,
 * so the translation reads what it does throw:
 * - bun:sqlite's `SQLiteError` (a busy database, a constraint, I/O) → `ssp.storage_error`;
 * - the 0.22 stores' `Error("…: content-address collision at <id> (§5.1)")`
 *   (segment-store.ts MemorySegmentStore.put, sqlite-segment-store.ts put) →
 *   `ssp.segment_collision` with that id;
 * - anything else → `ssp.internal` (the driver did not expect it), with upstream's message.
 */
export function translateUpstreamError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (error.name === 'SQLiteError' || (typeof code === 'string' && code.startsWith('SQLITE_'))) {
      return new ProtocolError(
        'ssp.storage_error',
        `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`,
      );
    }
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
