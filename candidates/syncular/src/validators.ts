/**
 * The host validators upstream's push pipeline calls (validate.ts: `Validator`,
 * `CommitValidator`), played by the harness: each call becomes a `validate_row` /
 * `validate_commit` callback (docs/driver-protocol.md "Callbacks"), and the verdict becomes
 * what a host validator does — return (accepted), throw upstream's `ValidationRejection` /
 * `CommitValidationRejection` (a rejection), or throw a plain Error (`{"threw"}` or an error
 * answer: the validator threw something else). Upstream decides what each means.
 */
import { CallbackRefused, type Call } from './protocol';
import type { CommitReaders } from './push-readers';
import { type Column, valuesToWire } from './row-values';
import { parseDetails } from './stored';
import { isObject, type Params } from './wire';

type Tables = Map<string, Params>;

/** upstream `ValidateRow` (column name → value) → the protocol's decoded row, in column order. */
function rowToWire(tables: Tables, table: string, row: unknown): unknown[] | null {
  if (row === undefined || row === null) return null;
  const columns = (tables.get(table)?.columns ?? []) as Column[];
  return valuesToWire(columns, columns.map((c) => (row as Record<string, unknown>)[c.name] ?? null));
}

async function ask(call: Call, method: string, params: Params): Promise<Params> {
  try {
    return await call.callHarness(method, params);
  } catch (error) {
    if (error instanceof CallbackRefused) throw new Error(error.message);
    throw error;
  }
}

/** A verdict → return or throw, as a host validator would. */
function apply(upstream: Params, verdict: Params): void {
  if (typeof verdict.threw === 'string') throw new Error(verdict.threw);
  const rejection = verdict.rejection;
  if (!isObject(rejection)) return;
  const details = typeof rejection.details === 'string' ? parseDetails(rejection.details) : undefined;
  const code = String(rejection.code);
  const message = String(rejection.message);
  const Rejections = upstream as { ValidationRejection: new (...a: unknown[]) => Error; CommitValidationRejection: new (...a: unknown[]) => Error };
  if (typeof rejection.opIndex === 'number') throw new Rejections.CommitValidationRejection(rejection.opIndex, code, message, details);
  throw new Rejections.ValidationRejection(code, message, details);
}

/** A per-table `Validator` that asks the harness. */
export function rowValidator(upstream: Params, call: Call, tables: Tables) {
  return async (op: Params, ctx: Params) => {
    const table = String(op.table);
    const verdict = await ask(call, 'validate_row', {
      op: op.op,
      table,
      rowId: op.rowId,
      row: rowToWire(tables, table, op.row),
      stored: rowToWire(tables, table, op.stored),
      actorId: ctx.actorId,
      partition: ctx.partition,
    });
    apply(upstream, verdict);
  };
}

/** The `CommitValidator` that asks the harness, serving its reads meanwhile (push-readers.ts). */
export function commitValidator(upstream: Params, call: Call, tables: Tables, readers: CommitReaders, tx: () => unknown) {
  return async (input: Params) => {
    const key = JSON.stringify(call.id);
    readers.set(key, { read: input.read as Params, tx: tx() as Params });
    let verdict: Params;
    try {
      verdict = await ask(call, 'validate_commit', {
        clientId: input.clientId,
        clientCommitId: input.clientCommitId,
        actorId: input.actorId,
        partition: input.partition,
        operations: (input.operations as Params[]).map((o) => ({
          opIndex: o.opIndex,
          op: o.op,
          table: o.table,
          rowId: o.rowId,
          row: rowToWire(tables, String(o.table), o.row),
          stored: rowToWire(tables, String(o.table), o.stored),
          storedServerVersion: o.storedServerVersion ?? null,
          nextServerVersion: o.nextServerVersion ?? null,
        })),
      });
    } finally {
      readers.delete(key);
    }
    apply(upstream, verdict);
  };
}
