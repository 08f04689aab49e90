/** Writing object keys that come from the wire (table names, scope variables). */
import type { Params } from './wire';

/**
 * `target[key] = value` as an own property even for `__proto__` (a table or scope variable may
 * bear that name; plain assignment would set the prototype instead).
 */
export function setOwn(target: Params, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
