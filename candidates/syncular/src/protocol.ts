/**
 * The JSON-lines transport of docs/driver-protocol.md: one object per line on stdin/stdout,
 * logs on stderr. Requests are served concurrently, as the Bun host serves HTTP requests:
 * each runs as its own async task and is answered by its id when it settles, so a request that
 * waits (on a callback, a busy database) never stops the next one from being read.
 */
import { ProtocolError, translateUpstreamError, unsupported } from './errors';
import { floatText, WireFloat } from './row-values';
import { isObject, type Params } from './wire';

// Floats are written as JSON numbers with a fraction or exponent (docs/driver-protocol.md
// "Values"), which JSON.stringify does not do for 1.0: each is first written as this marker
// string, which JSON.stringify writes with U+0000 escaped, and the marker then replaced by the
// number's text. (Only a text that itself holds U+0000 then "ssp-float:" could be mistaken for
// one; tests send U+0000 only to see it refused.)
const FLOAT_MARK = '\\u0000ssp-float:'; // as JSON.stringify writes the marker
const FLOAT_MARKS = /"\\u0000ssp-float:([^"]*)"/g;

function serialize(message: Params): string {
  const json = JSON.stringify(message, (_key, value) =>
    value instanceof WireFloat ? `\u0000ssp-float:${floatText(value.value)}` : value,
  );
  return json.includes(FLOAT_MARK) ? json.replace(FLOAT_MARKS, '$1') : json;
}

/** What a method sees of the process: the id of its call, and a way to call back. */
export interface Call {
  readonly id: unknown;
  /** Sends a callback request to the harness and waits for its answer. */
  callHarness(method: string, params: Params): Promise<Params>;
}

export type Method = (params: Params, call: Call) => Promise<Params> | Params;

/** The harness answered one of our callbacks with an error. */
export class CallbackRefused extends Error {
  constructor(readonly error: { code?: string; message?: string }) {
    super(error.message ?? 'callback refused');
  }
}

export function log(message: string): void {
  process.stderr.write(`syncular-driver: ${message}\n`);
}

/**
 * Lines of stdin split at `\n` only. (node:readline also splits at U+2028 and U+2029, which
 * JSON leaves unescaped inside strings, so it would cut messages apart.)
 */
async function* stdinLines(): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let parts: Uint8Array[] = []; // the unfinished line, as chunks
  for await (const chunk of Bun.stdin.stream()) {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end >= 0; end = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, end));
      yield decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
      parts = [];
      start = end + 1;
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  }
  if (parts.length > 0) yield decoder.decode(Buffer.concat(parts));
}

export class Server {
  #pending = new Map<string, { resolve: (value: Params) => void; reject: (error: Error) => void }>();
  #nextCallback = 1;
  #inFlight = new Set<Promise<void>>();

  constructor(readonly methods: Map<string, Method>) {}

  async run(): Promise<void> {
    for await (const line of stdinLines()) {
      if (line.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        log(`ignored a line that is not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      if (!isObject(message)) {
        log('ignored a message that is not an object');
      } else if ('method' in message) {
        const task = this.#serve(message).finally(() => this.#inFlight.delete(task));
        this.#inFlight.add(task);
      } else if ('result' in message || 'error' in message) {
        this.#answerCallback(message);
      } else {
        log('ignored a message that is neither request nor answer');
      }
    }
    for (const pending of this.#pending.values()) pending.reject(new Error('stdin closed'));
    await Promise.allSettled([...this.#inFlight]);
  }

  async #serve(message: Params): Promise<void> {
    const id = message.id;
    try {
      const method = this.methods.get(String(message.method));
      if (method === undefined) throw unsupported(`unknown method ${JSON.stringify(message.method)}`);
      const params = message.params ?? {};
      if (!isObject(params)) throw new ProtocolError('ssp.bad_request', 'params must be an object');
      const call: Call = { id, callHarness: (name, p) => this.#callHarness(name, { call: id, ...p }) };
      const result = await method(params, call);
      this.#send({ id, result });
    } catch (thrown) {
      const error = translateUpstreamError(thrown);
      if (error.code === 'ssp.internal') log(`${String(message.method)}: ${(thrown as Error)?.stack ?? thrown}`);
      this.#send({
        id,
        error: { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) },
      });
    }
  }

  #callHarness(method: string, params: Params): Promise<Params> {
    const id = `cb${this.#nextCallback++}`;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ id, method, params });
    });
  }

  #answerCallback(message: Params): void {
    const id = String(message.id);
    const pending = this.#pending.get(id);
    if (pending === undefined) {
      log(`ignored an answer to ${id}, which is not a callback in flight`);
      return;
    }
    this.#pending.delete(id);
    if ('error' in message) pending.reject(new CallbackRefused((message.error ?? {}) as never));
    else pending.resolve((message.result ?? {}) as Params);
  }

  #send(message: Params): void {
    process.stdout.write(`${serialize(message)}\n`);
  }
}
