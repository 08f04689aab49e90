/** `hello` (docs/driver-protocol.md "hello"): the versions spoken and what is really served. */
import { unsupported } from './errors';
import type { Method } from './protocol';
import { integer } from './wire';

export function helloMethod(segmentsVersion: string): Method {
  return (params) => {
    const protocol = integer(params, 'protocol');
    // Version 2 and, for an older harness, version 1: the segments area is the same in both.
    if (protocol !== 2 && protocol !== 1) throw unsupported(`protocol ${protocol} is not spoken`);
    return {
      protocol,
      implementation: { name: 'syncular (upstream TypeScript server under Bun)', version: `segments ${segmentsVersion}` },
      capabilities: {
        backends: ['memory', 'sqlite'],
        areas: ['segments'],
        hooks: false, // upstream has no hook points
        hasher: false, // upstream hashes with segmentIdFor (SHA-256) only
        readOnly: false, // upstream has no read-only segment store
      },
    };
  };
}
