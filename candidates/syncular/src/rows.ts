/**
 * The rows area (docs/driver-protocol.md "rows"): core's `encodeRow` / `decodeRow`
 * (packages/core/src/row-codec.ts), values translated by row-values.ts.
 */
import { invalidArgument, ProtocolError, rowDecodeError } from './errors';
import type { Method } from './protocol';
import { columnsFromWire, valuesFromWire, valuesToWire } from './row-values';
import type { Upstream } from './upstream';
import { bytes, toBase64 } from './wire';

export function rowMethods(upstream: Upstream): Map<string, Method> {
  const { encodeRow, decodeRow } = upstream.core;

  // rows.encode: core's writeRow refuses with plain Errors ("column C is not nullable",
  // "column C (type) requires …", "row value count …"): `ssp.invalid_argument` with its text.
  const encode: Method = (params) => {
    const columns = columnsFromWire(params.columns);
    const values = valuesFromWire(params.values, 'values');
    let payload: Uint8Array;
    try {
      payload = encodeRow(columns, values);
    } catch (error) {
      throw invalidArgument(error instanceof Error ? error.message : String(error));
    }
    return { payload: toBase64(payload) };
  };

  // rows.decode: core's DecodeError → `ssp.row_decode_error` (errors.ts rowDecodeError).
  const decode: Method = (params) => {
    const columns = columnsFromWire(params.columns);
    let values: unknown[];
    try {
      values = decodeRow(columns, bytes(params, 'payload'));
    } catch (error) {
      if (error instanceof Error && error.name === 'DecodeError') throw rowDecodeError(error);
      throw new ProtocolError('ssp.invalid_result', `decodeRow threw ${String(error)}`, { raw: String(error) });
    }
    return { values: valuesToWire(columns, values) };
  };

  return new Map([
    ['rows.encode', encode],
    ['rows.decode', decode],
  ]);
}
