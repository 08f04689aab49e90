/**
 * The per-partition coordinator D1 needs (SSP2 §6.8: a storage without interactive
 * transactions is serialized outside its database). Upstream's Workers host routes each
 * partition's requests to one Durable Object, which takes them one at a time. The harness
 * opens every storage in a process of its own, so this coordinator works across processes,
 * as a Durable Object does across Workers: beside the database file, a directory
 * (`FILE.d1-coordinator/`) holds
 * - one lock file per partition: a push or command holds its write lock (`BEGIN IMMEDIATE`)
 *   from before upstream's pipeline starts until the pipeline returns, and the operating
 *   system frees it if the process dies;
 * - `waiting.sqlite`: a row per call waiting for a partition's lock, which `waiting()` counts
 *   for the driver's `coordinator.waiting` (docs/driver-protocol.md), so that a race sees a
 *   step wait where this storage serializes, not merely not answer.
 * A waiting call polls the lock without blocking the process, which goes on answering the
 * harness meanwhile.
 *
 * `serializes: false` is the misconfigured host, the negative control: it tells the storage
 * that writes are serialized (`pushApplySerialized`) and holds no lock.
 */
import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { invalidArgument } from './errors';
import type { Method } from './protocol';
import { object, text } from './wire';

const SQLITE_BUSY = 'SQLITE_BUSY';
const POLL_MS = 1;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith(SQLITE_BUSY);
}

/** Whether process `pid` is alive (a waiting row of a killed process is not counted). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class Coordinator {
  readonly #directory: string;
  readonly #waitingDb: Database;
  readonly #locks = new Map<string, Database>();
  /** Per partition, the end of this process's own queue: calls of one process queue here first. */
  readonly #tails = new Map<string, Promise<void>>();
  #nextToken = 1;

  /** The coordinator of the database at `databasePath`. */
  constructor(
    databasePath: string,
    readonly serializes: boolean,
  ) {
    this.#directory = `${databasePath}.d1-coordinator`;
    mkdirSync(this.#directory, { recursive: true });
    this.#waitingDb = new Database(join(this.#directory, 'waiting.sqlite'));
    this.#waitingDb.exec('PRAGMA busy_timeout = 5000');
    this.#waitingDb.exec(
      'CREATE TABLE IF NOT EXISTS waiting (pid INTEGER NOT NULL, token INTEGER NOT NULL, partition TEXT NOT NULL)',
    );
  }

  /** Runs `work` while holding `partition`'s lock, once every earlier holder has let it go. */
  async serialize<T>(partition: string, work: () => Promise<T>): Promise<T> {
    if (!this.serializes) return work();
    const before = this.#tails.get(partition);
    let letGo!: () => void;
    const mine = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const tail = (before ?? Promise.resolve()).then(() => mine);
    this.#tails.set(partition, tail);
    const end = () => {
      letGo();
      if (this.#tails.get(partition) === tail) this.#tails.delete(partition);
    };
    let lock: Database;
    try {
      lock = await this.#acquire(partition, before);
    } catch (error) {
      end();
      throw error;
    }
    try {
      return await work();
    } finally {
      // Nothing was written under the lock: a rollback lets it go, and, unlike a COMMIT, is
      // never refused as busy while other processes poll for it.
      lock.exec('ROLLBACK');
      end();
    }
  }

  /** Calls of live processes waiting for a partition's lock of this database. */
  waiting(): number {
    const rows = this.#waitingDb.query('SELECT pid FROM waiting').all() as { pid: number }[];
    return rows.filter((row) => alive(row.pid)).length;
  }

  close(): void {
    for (const lock of this.#locks.values()) lock.close();
    this.#waitingDb.close();
  }

  /** Waits for this process's earlier call (`before`), then for the lock file; returns it held. */
  async #acquire(partition: string, before: Promise<void> | undefined): Promise<Database> {
    let token: number | undefined;
    const markWaiting = () => {
      if (token !== undefined) return;
      token = this.#nextToken++;
      this.#waitingDb
        .query('INSERT INTO waiting (pid, token, partition) VALUES (?, ?, ?)')
        .run(process.pid, token, partition);
    };
    try {
      if (before !== undefined) {
        markWaiting();
        await before;
      }
      const lock = this.#lockOf(partition);
      for (;;) {
        try {
          lock.exec('BEGIN IMMEDIATE');
          return lock;
        } catch (error) {
          if (!isBusy(error)) throw error;
        }
        markWaiting();
        await Bun.sleep(POLL_MS);
      }
    } finally {
      if (token !== undefined) {
        this.#waitingDb.query('DELETE FROM waiting WHERE pid = ? AND token = ?').run(process.pid, token);
      }
    }
  }

  #lockOf(partition: string): Database {
    let lock = this.#locks.get(partition);
    if (lock === undefined) {
      const name = Buffer.from(partition, 'utf8').toString('hex');
      lock = new Database(join(this.#directory, `partition-${name}.lock`));
      lock.exec('PRAGMA busy_timeout = 0');
      this.#locks.set(partition, lock);
    }
    return lock;
  }
}

/**
 * `coordinator.waiting` (docs/driver-protocol.md, capability `coordinator`): how many calls wait
 * in the coordinator of the SQLite database `location` names.
 */
export function coordinatorMethods(serializes: boolean): Map<string, Method> {
  const waiting: Method = async (params) => {
    const location = object(params, 'location');
    if (text(location, 'backend') !== 'sqlite') throw invalidArgument('the coordinator serves SQLite files only');
    const coordinator = new Coordinator(text(location, 'path'), serializes);
    try {
      return { waiting: coordinator.waiting() };
    } finally {
      coordinator.close();
    }
  };
  return new Map<string, Method>([['coordinator.waiting', waiting]]);
}
