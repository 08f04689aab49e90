/**
 * Reading params and writing values as docs/driver-protocol.md "Values" says. A field of the
 * wrong JSON type is `ssp.bad_request` (a harness bug or version mismatch); the values
 * themselves are passed to upstream untouched — range, UTF-8 and NUL checks are upstream's.
 */
import { badRequest } from './errors';

export type Params = Record<string, unknown>;

export function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function object(params: Params, field: string): Params {
  const value = params[field];
  if (!isObject(value)) throw badRequest(`${field}: expected an object`);
  return value;
}

export function integer(params: Params, field: string): number {
  const value = params[field];
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw badRequest(`${field}: expected an integer`);
  }
  return value;
}

export function boolean(params: Params, field: string, fallback?: boolean): boolean {
  const value = params[field];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'boolean') throw badRequest(`${field}: expected a boolean`);
  return value;
}

/**
 * Text: a JSON string, or `{"$raw": BASE64}` for bytes that are not UTF-8. A JavaScript string
 * cannot hold such bytes; they are decoded the way the Bun runtime decodes any UTF-8 it receives
 * (TextDecoder, U+FFFD for each invalid sequence), which is what upstream would be handed.
 */
export function textValue(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.$raw === 'string') {
    return new TextDecoder('utf-8', { fatal: false }).decode(fromBase64(value.$raw));
  }
  throw badRequest(`${field}: expected text`);
}

export function text(params: Params, field: string): string {
  return textValue(params[field], field);
}

export function nullableText(params: Params, field: string): string | null {
  const value = params[field];
  return value === null ? null : textValue(value, field);
}

export function bytes(params: Params, field: string): Uint8Array {
  const value = params[field];
  if (typeof value !== 'string') throw badRequest(`${field}: expected base64 bytes`);
  return fromBase64(value);
}

export function fromBase64(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, 'base64'));
}

export function toBase64(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}
