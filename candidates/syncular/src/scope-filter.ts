/**
 * A scope filter on the wire (docs/driver-protocol.md: a scope map, variable → values) as
 * upstream's `ScopeMap`: the filter of `push.scan_rows`, `tx.scan_rows` and
 * `storage.read_table_window`. Keys become own properties, `__proto__` included.
 */
import { badRequest } from './errors';
import { setOwn } from './own-keys';
import { object, type Params, textValue } from './wire';

export function scopeFilterOf(params: Params, field = 'scopeFilter'): Record<string, string[]> {
  const filter = object(params, field);
  const scopeFilter: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(filter)) {
    if (!Array.isArray(values)) throw badRequest(`${field}.${key}: expected an array`);
    setOwn(scopeFilter, key, values.map((v, i) => textValue(v, `${field}.${key}[${i}]`)));
  }
  return scopeFilter;
}
