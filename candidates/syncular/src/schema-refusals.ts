/**
 * What upstream's `ensureSchema` (sqlite-storage.ts, postgres-storage.ts) and the migration
 * helpers it calls (relational-rows.ts) throw, as `ssp.schema_refusal` with the protocol's
 * `data.reason` (docs/driver-protocol.md "Errors"). Upstream throws plain Errors, so the
 * translation reads their messages; README.md lists each.
 */
import { ProtocolError, translateStorageError } from './errors';

const QUOTED = '("(?:[^"\\\\]|\\\\.)*")';

const REFUSALS: readonly { pattern: RegExp; reason: string; table?: number; column?: number }[] = [
  // ensureSchema, both storages
  { pattern: /^stored schema version -?\d+ is newer than the configured schema \(-?\d+\)/, reason: 'stored_newer' },
  // assertAppendOnlyMigration (relational-rows.ts)
  { pattern: new RegExp(`^table ${QUOTED}: the schema removed columns`), reason: 'not_append_only', table: 1 },
  { pattern: new RegExp(`^table ${QUOTED}: column \\d+ changed `), reason: 'not_append_only', table: 1 },
  { pattern: new RegExp(`^table ${QUOTED}: added column ${QUOTED} must be nullable`), reason: 'not_append_only', table: 1, column: 2 },
];

/** An error thrown by ensureSchema → the protocol's error. */
export function ensureSchemaError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof Error) {
    for (const refusal of REFUSALS) {
      const match = refusal.pattern.exec(error.message);
      if (match === null) continue;
      const data: Record<string, unknown> = { reason: refusal.reason };
      if (refusal.table !== undefined) data.table = JSON.parse(match[refusal.table] as string);
      if (refusal.column !== undefined) data.column = JSON.parse(match[refusal.column] as string);
      return new ProtocolError('ssp.schema_refusal', error.message, data);
    }
    // parseLayouts (relational-rows.ts) is `JSON.parse(marker.layouts)`: its SyntaxError is the
    // stored layouts being unreadable.
    if (error.name === 'SyntaxError') {
      return new ProtocolError('ssp.schema_refusal', error.message, { reason: 'layouts_unreadable' });
    }
    // migratePayload (relational-rows.ts) decodes each stored payload with the old layout: its
    // DecodeError is a stored row that does not decode.
    if (error.name === 'DecodeError') {
      return new ProtocolError('ssp.schema_refusal', error.message, { reason: 'row_undecodable' });
    }
  }
  return translateStorageError(error);
}
