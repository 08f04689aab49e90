/**
 * The protocol's schema JSON (docs/storage.md "Schema JSON") → upstream's `ServerSchema`
 * (schema.ts). The two share their field names, so this is a copy that reads `$raw` text and
 * leaves out absent optional fields; compiling, with every refusal, is upstream's
 * `compileSchema`.
 */
import { badRequest, ProtocolError } from './errors';
import type { Upstream } from './upstream';
import { boolean, integer, isObject, type Params, text, textValue } from './wire';

function list(params: Params, field: string): unknown[] {
  const value = params[field];
  if (!Array.isArray(value)) throw badRequest(`${field}: expected an array`);
  return value;
}

function entry(value: unknown, field: string): Params {
  if (!isObject(value)) throw badRequest(`${field}: expected an object`);
  return value;
}

function column(value: unknown, at: string): Params {
  const c = entry(value, at);
  return {
    name: text(c, 'name'),
    type: text(c, 'type'),
    nullable: boolean(c, 'nullable'),
    ...(c.crdtType !== undefined ? { crdtType: text(c, 'crdtType') } : {}),
    ...(c.encrypted !== undefined ? { encrypted: boolean(c, 'encrypted') } : {}),
    ...(c.declaredType !== undefined ? { declaredType: text(c, 'declaredType') } : {}),
  };
}

function scope(value: unknown, at: string): unknown {
  if (!isObject(value)) return textValue(value, at);
  return { pattern: text(value, 'pattern'), column: text(value, 'column') };
}

function index(value: unknown, at: string): Params {
  const i = entry(value, at);
  return {
    name: text(i, 'name'),
    columns: list(i, 'columns').map((c, k) => textValue(c, `${at}.columns[${k}]`)),
    ...(i.unique !== undefined ? { unique: boolean(i, 'unique') } : {}),
  };
}

function table(value: unknown, at: string): Params {
  const t = entry(value, at);
  return {
    name: text(t, 'name'),
    columns: list(t, 'columns').map((c, k) => column(c, `${at}.columns[${k}]`)),
    primaryKey: text(t, 'primaryKey'),
    scopes: list(t, 'scopes').map((s, k) => scope(s, `${at}.scopes[${k}]`)),
    ...(t.indexes !== undefined ? { indexes: list(t, 'indexes').map((i, k) => index(i, `${at}.indexes[${k}]`)) } : {}),
    ...(t.materialize !== undefined ? { materialize: boolean(t, 'materialize') } : {}),
  };
}

/** Schema JSON → `ServerSchema`. */
export function serverSchemaFromWire(schema: Params): Params {
  return {
    version: integer(schema, 'version'),
    tables: list(schema, 'tables').map((t, k) => table(t, `tables[${k}]`)),
  };
}

/** A schema refusal as `ssp.schema_error`; the driver's own error answers pass unchanged. */
export const schemaError = (error: unknown) =>
  error instanceof ProtocolError && error.code !== 'ssp.bad_request'
    ? error
    : new ProtocolError('ssp.schema_error', error instanceof Error ? error.message : String(error));

/**
 * Schema JSON → upstream's `compileSchema`: the `ServerSchema` and its `CompiledSchema`. A
 * malformed schema JSON is `ssp.bad_request` (serverSchemaFromWire), what `compileSchema`
 * refuses `ssp.schema_error`.
 */
export function compileWireSchema(upstream: Upstream, schema: Params): { serverSchema: Params; compiled: Params } {
  const serverSchema = serverSchemaFromWire(schema);
  try {
    return { serverSchema, compiled: upstream.compileSchema(serverSchema) };
  } catch (error) {
    throw schemaError(error);
  }
}
