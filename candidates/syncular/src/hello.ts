/** `hello` (docs/driver-protocol.md "hello"): the versions spoken and what is really served. */
import { unsupported } from './errors';
import type { Method } from './protocol';
import { integer } from './wire';

/** What the driver was started to serve: the segment store, and server storage backends. */
export interface Served {
  readonly segmentsVersion: string;
  /**
   * `--storage`: the server storages served (empty: segments only). `d1` serves the sqlite
   * backend with upstream's D1 storage.
   */
  readonly storageBackends: readonly ('sqlite' | 'd1' | 'postgres')[];
  /** `--coordinator` when the D1 storage is served. */
  readonly coordinator?: string;
}

export function helloMethod(served: Served): Method {
  return (params) => {
    const protocol = integer(params, 'protocol');
    // Version 3 and, for an older harness, versions 2 (no pull read) and 1 (no push methods).
    if (protocol !== 3 && protocol !== 2 && protocol !== 1) {
      throw unsupported(`protocol ${protocol} is not spoken`);
    }
    const storage = served.storageBackends.length > 0;
    // Backends are declared for every area at once, and upstream has no PostgreSQL segment
    // store: a driver serving postgres storage leaves the segments area out.
    const segments = !served.storageBackends.includes('postgres');
    // D1 has no interactive transaction: the raw begin/lock/commit of trusted code is not served.
    const d1 = served.storageBackends.includes('d1');
    const storageName = served.storageBackends
      .map((b) => (b === 'd1' ? `d1 (coordinator ${served.coordinator})` : b))
      .join('+');
    return {
      protocol,
      implementation: {
        name: 'syncular (upstream TypeScript server under Bun)',
        version: `segments ${served.segmentsVersion}${storage ? `, storage ${storageName}` : ''}`,
      },
      capabilities: {
        backends: ['memory', 'sqlite', ...(served.storageBackends.includes('postgres') ? ['postgres'] : [])],
        areas: [...(segments ? ['segments'] : []), ...(storage ? ['storage', 'rows', 'schema'] : [])],
        hooks: false, // upstream has no hook points
        hasher: false, // upstream hashes with segmentIdFor (SHA-256) only
        readOnly: false, // upstream has no read-only segment store
        ...(storage && protocol >= 2
          ? {
              // Version 3: pull's read is upstream's readCommitWindow, the registry its
              // touchPartition, rotatePartitionLogEpoch and listPartitionRegistry.
              ...(protocol >= 3 ? { tableWindow: true, partitionRegistry: true } : {}),
              push: true,
              transactions: !d1,
              pushHooks: false, // push.ts has no hook points
              upstreamTables: true, // the storages keep upstream's own sync_* tables
              schemaReport: false, // ensureSchema returns void; there is no preview
              commands: true, // command.run through operations.ts
              // operations.ts runs a command's commit through push.ts with the request's
              // validators and notifier, as REMOTE §3 says.
              commandCallbacks: true,
              // push.run and command.run run under the schema ensure_schema compiled, as a
              // host's pushes run under its configuration: the harness sends none.
              ensuredSchema: true,
              queryAuthoritative: false,
              // D1's pushes are serialized outside the database: coordinator.waiting says who waits.
              ...(d1 ? { coordinator: true } : {}),
            }
          : storage
            ? { schemaReport: false }
            : {}),
      },
    };
  };
}
