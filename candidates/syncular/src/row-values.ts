/**
 * Row values (docs/driver-protocol.md "Values": Row value) ↔ upstream core's `RowValue`
 * (row-codec.ts: `string | number | boolean | Uint8Array | null`), and column lists ↔ core's
 * `RowColumn`. Values are converted by the kind the wire gives them, never checked against the
 * column: the codec is upstream's, and so are its refusals. JavaScript has one number type, so
 * an integer and a float of the same value reach upstream alike.
 */
import { badRequest, invalidResult } from './errors';
import { boolean, fromBase64, isObject, type Params, text, textValue, toBase64 } from './wire';

export interface Column {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
}

/** A float to write as a JSON number with a fraction or exponent (protocol.ts serializes it). */
export class WireFloat {
  constructor(readonly value: number) {}
}

/** `{"name", "type", "nullable"}` list → core `RowColumn[]`. */
export function columnsFromWire(value: unknown): Column[] {
  if (!Array.isArray(value)) throw badRequest('columns: expected an array');
  return value.map((column, index) => {
    if (!isObject(column)) throw badRequest(`columns[${index}]: expected an object`);
    return { name: text(column, 'name'), type: text(column, 'type'), nullable: boolean(column, 'nullable') };
  });
}

const FLOAT_WORDS: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };

/** A wire row value → core `RowValue`, by the value's own kind. */
export function valueFromWire(value: unknown, field: string): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'string') return value;
  if (isObject(value)) {
    if ('$raw' in value) return textValue(value, field);
    if (typeof value.$bytes === 'string') return fromBase64(value.$bytes);
    if (typeof value.$float === 'string' && value.$float in FLOAT_WORDS) return FLOAT_WORDS[value.$float];
  }
  throw badRequest(`${field}: not a row value`);
}

export function valuesFromWire(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw badRequest(`${field}: expected an array`);
  return value.map((v, i) => valueFromWire(v, `${field}[${i}]`));
}

/**
 * A core `RowValue` → the wire form its column's type asks for. A value of another kind than
 * the column's type (which upstream's decoder never gives) is `ssp.invalid_result`.
 */
export function valueToWire(column: Column, value: unknown): unknown {
  if (value === null) return null;
  const wrong = () => invalidResult(`upstream gave column ${column.name} (${column.type}) a ${typeof value}`, value);
  switch (column.type) {
    case 'string':
    case 'json':
    case 'blob_ref':
      if (typeof value !== 'string') throw wrong();
      return value;
    case 'integer':
      if (typeof value === 'bigint') return Number(value) === Number(value) ? Number(value) : value;
      if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong();
      return value;
    case 'float':
      if (typeof value !== 'number') throw wrong();
      if (Number.isNaN(value)) return { $float: 'NaN' };
      if (!Number.isFinite(value)) return { $float: value > 0 ? 'Infinity' : '-Infinity' };
      return new WireFloat(value);
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'bytes':
    case 'crdt':
      if (!(value instanceof Uint8Array)) throw wrong();
      return { $bytes: toBase64(value) };
    default:
      throw wrong();
  }
}

export function valuesToWire(columns: readonly Column[], values: readonly unknown[]): unknown[] {
  return columns.map((column, i) => valueToWire(column, values[i] ?? null));
}

/** JSON text for a finite float that always carries a fraction or exponent (`1.0`, `-0.0`, `1e+21`). */
export function floatText(value: number): string {
  if (Object.is(value, -0)) return '-0.0';
  const plain = String(value);
  return /[.eE]/.test(plain) ? plain : `${plain}.0`;
}

export type { Params };
