/**
 * push.read_row / push.scan_rows (docs/driver-protocol.md "Validator verdicts"): the reads a
 * commit validator makes while its `validate_commit` is unanswered, through upstream's
 * `CommitValidationReader` (push.ts `commitValidationReader`) handed to that validator. The
 * reader answers decoded rows without scopes or payload, which the protocol's stored row needs,
 * so after the reader has answered (with its own checks and decode) the same read is made on
 * the push's transaction, which the reader reads through, for the stored row.
 */
import { badRequest, ProtocolError, translateStorageError } from './errors';
import type { Method } from './protocol';
import { storedRowToWire } from './stored';
import { integer, nullableText, type Params, text } from './wire';
import { scopeFilterOf } from './scope-filter';

/** Push call id (as JSON) → the reader and transaction of its waiting commit validator. */
export type CommitReaders = Map<string, { read: Params; tx: Params }>;

/** What both upstream's reader and its transaction offer; called as methods (`this` matters). */
interface Reader {
  getRow(table: string, rowId: string): Promise<Params | undefined>;
  scanRows(query: Params): Promise<Params[]>;
}

/** The reader's plain Errors (push.ts commitValidationReader) are refusals of the read. */
function readerError(error: unknown): ProtocolError {
  if (
    error instanceof Error &&
    (error.message.startsWith('commit validator requested unknown table ') ||
      error.message === 'commit validator scan limit must be an integer from 1 to 1,000')
  ) {
    return new ProtocolError('ssp.invalid_argument', error.message);
  }
  return translateStorageError(error);
}

async function reading<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw readerError(error);
  }
}

export function readerMethods(readers: CommitReaders, _upstream: Params): [string, Method][] {
  const readerOf = (params: Params) => {
    const found = readers.get(JSON.stringify(params.call));
    if (found === undefined) throw badRequest(`push ${JSON.stringify(params.call)} has no commit validator waiting`);
    return found;
  };

  const readRow: Method = async (params) => {
    const { read, tx } = readerOf(params);
    const table = text(params, 'table');
    const rowId = text(params, 'rowId');
    const seen = await reading(() => (read as unknown as Reader).getRow(table, rowId));
    if (seen === undefined) return { row: null };
    return { row: storedRowToWire(await reading(() => (tx as unknown as Reader).getRow(table, rowId))) };
  };

  const scanRows: Method = async (params) => {
    const { read, tx } = readerOf(params);
    const query = { table: text(params, 'table'), scopeFilter: scopeFilterOf(params), afterRowId: nullableText(params, 'afterRowId'), limit: integer(params, 'limit') };
    await reading(() => (read as unknown as Reader).scanRows(query));
    const rows = await reading(() => (tx as unknown as Reader).scanRows(query));
    return { rows: rows.map((r) => storedRowToWire(r)) };
  };

  return [
    ['push.read_row', readRow],
    ['push.scan_rows', scanRows],
  ];
}
