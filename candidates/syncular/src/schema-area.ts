/**
 * The schema area (docs/driver-protocol.md "schema") over upstream's `compileSchema`
 * (schema.ts) and `layoutsOf` (relational-rows.ts). Upstream has no schema-JSON parser: a host
 * `JSON.parse`s its schema and hands the object over, so schema.parse is exactly that
 * (schema-json.ts copies the known fields); the JSON form's own rules (unknown or repeated keys
 * refused, error paths) are not upstream's and are not added.
 */
import { invalidResult } from './errors';
import type { Method } from './protocol';
import { compileWireSchema, schemaError, serverSchemaFromWire } from './schema-json';
import type { Upstream } from './upstream';
import { isObject, object, type Params, text } from './wire';
import { setOwn } from './own-keys';

/** Whether a wire value holds `{"$raw": …}` text anywhere. */
function holdsRaw(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRaw);
  if (!isObject(value)) return false;
  return '$raw' in value || Object.values(value).some(holdsRaw);
}

export function schemaMethods(upstream: Upstream): Map<string, Method> {
  const parse: Method = (params) => {
    try {
      const parsed = JSON.parse(text(params, 'text'));
      if (!isObject(parsed)) throw new Error('schema JSON: expected an object');
      const schema = serverSchemaFromWire(parsed);
      // Upstream takes any JavaScript number as the version; one outside the wire's integers
      // cannot be answered.
      if (!Number.isSafeInteger(schema.version)) throw invalidResult('the parsed schema version is not a wire integer', parsed);
      return { schema };
    } catch (error) {
      throw schemaError(error);
    }
  };

  // The answer: the schema as sent, `materialize` as upstream resolved it, each table's scope
  // variables and columns from its compiled `scopePatterns`, and upstream's marker text.
  const compile: Method = (params) => {
    const { serverSchema: schema, compiled } = compileWireSchema(upstream, object(params, 'schema'));
    // Text that is not UTF-8 reaches upstream as U+FFFD (wire.ts textValue); when upstream
    // accepts it, the names it compiled are not the names sent, and no answer can say so.
    if (holdsRaw(params.schema)) {
      throw invalidResult('upstream compiled a schema whose non-UTF-8 text it read as U+FFFD', upstream.layoutsOf(compiled));
    }
    const tables = compiled.tables as Map<string, Params>;
    const scopes: Record<string, unknown> = {};
    const resolved = (schema.tables as Params[]).map((table) => {
      const c = tables.get(table.name as string) as Params;
      setOwn(scopes, table.name as string, (c.scopePatterns as Params[]).map((p) => ({ variable: p.variable, column: p.column })));
      return { ...table, materialize: c.materialize };
    });
    return { schema: { ...schema, tables: resolved }, scopes, layoutsJson: upstream.layoutsOf(compiled) };
  };

  return new Map([
    ['schema.parse', parse],
    ['schema.compile', compile],
  ]);
}
