/**
 * The segments area (docs/driver-protocol.md "segments") over upstream's MemorySegmentStore
 * (segment-store.ts) and SqliteSegmentStore (sqlite-segment-store.ts) on upstream's bun:sqlite
 * adapter (sqlite-bun-driver.ts). The driver opens the connection as a host would and calls the
 * store; it adds no check, lock or retry of its own.
 */
import { badRequest, ProtocolError, unsupported } from './errors';
import type { Method } from './protocol';
import { findKeyFromWire, metadataFromWire, recordToWire } from './records';
import type { SegmentStoreLike, SqliteDatabaseLike, UpstreamSegments } from './upstream';
import { boolean, bytes, integer, object, type Params, text, toBase64 } from './wire';

interface OpenStore {
  readonly store: SegmentStoreLike;
  readonly db: SqliteDatabaseLike | undefined;
}

export function segmentMethods(upstream: UpstreamSegments): Map<string, Method> {
  const stores = new Map<number, OpenStore>();
  let nextHandle = 1;

  const storeOf = (params: Params): OpenStore => {
    const handle = integer(params, 'store');
    const open = stores.get(handle);
    if (open === undefined) throw badRequest(`store ${handle} is not open`);
    return open;
  };

  const open: Method = (params) => {
    const location = object(params, 'location');
    const options = object(params, 'options');
    const ttlMs = integer(options, 'ttlMs');
    const lockWaitMs = integer(options, 'lockWaitMs');
    // Not advertised in hello: upstream has no read-only mode, no hook points and no
    // injectable hasher.
    if (boolean(options, 'readOnly', false)) throw unsupported('readOnly: upstream has no read-only segment store');
    if (boolean(options, 'hooks', false)) throw unsupported('hooks: upstream has no hook points');
    if (options.hasher !== undefined && options.hasher !== 'sha256') {
      throw unsupported('hasher: upstream hashes with SHA-256 only (segmentIdFor)');
    }
    const backend = text(location, 'backend');
    let entry: OpenStore;
    if (backend === 'memory') {
      entry = { store: new upstream.MemorySegmentStore({ ttlMs }), db: undefined };
    } else if (backend === 'sqlite') {
      const db = new upstream.BunSqliteDatabase(text(location, 'path'));
      try {
        // Host wiring: the connection's lock wait, which a host sets on the database it hands
        // to the store (upstream sets none itself).
        db.exec(`PRAGMA busy_timeout = ${lockWaitMs}`);
        entry = { store: new upstream.SqliteSegmentStore(db, { ttlMs }), db };
      } catch (error) {
        db.close();
        throw error;
      }
    } else {
      throw unsupported(`backend ${backend} is not served`);
    }
    const handle = nextHandle++;
    stores.set(handle, entry);
    return { store: handle };
  };

  const put: Method = async (params) => {
    const { store } = storeOf(params);
    const record = await store.put(
      metadataFromWire(object(params, 'metadata')),
      bytes(params, 'bytes'),
      integer(params, 'nowMs'),
    );
    return { record: recordToWire(record) };
  };

  const get: Method = async (params) => {
    const { store } = storeOf(params);
    const found = await store.get(text(params, 'segmentId'));
    return {
      segment: found === undefined ? null : { record: recordToWire(found.record), bytes: toBase64(found.bytes) },
    };
  };

  const find: Method = async (params) => {
    const { store } = storeOf(params);
    const record = await store.find(findKeyFromWire(object(params, 'key')), integer(params, 'nowMs'));
    return { record: record === undefined ? null : recordToWire(record) };
  };

  const stats: Method = async (params) => {
    const { store } = storeOf(params);
    if (store.stats === undefined) throw new ProtocolError('ssp.internal', 'upstream store has no stats()');
    const s = await store.stats();
    return { stats: { count: s.count, bytes: s.bytes, rowsSegments: s.rowsSegments, sqliteSegments: s.sqliteSegments } };
  };

  const close: Method = (params) => {
    const handle = integer(params, 'store');
    const entry = stores.get(handle);
    if (entry === undefined) throw badRequest(`store ${handle} is not open`);
    stores.delete(handle);
    entry.db?.close();
    return {};
  };

  return new Map<string, Method>([
    ['segments.open', open],
    ['segments.put', put],
    ['segments.get', get],
    ['segments.find', find],
    ['segments.stats', stats],
    ['segments.close', close],
  ]);
}
