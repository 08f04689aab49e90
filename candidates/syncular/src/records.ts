/**
 * Upstream's segment records as the protocol's Metadata, Publication, Record and Stats shapes
 * (docs/driver-protocol.md "Values"; the field names are upstream's own). Fields are copied,
 * never computed — with one exception, a 0.21 record (see recordToWire).
 */
import type { UpstreamRecord } from './upstream';
import { integer, nullableText, type Params, text } from './wire';

const METADATA_FIELDS = [
  'partition', 'logEpoch', 'table', 'schemaVersion', 'mediaType', 'scopeDigest',
  'asOfCommitSeq', 'rowCount', 'rowCursor', 'nextRowCursor',
] as const;
const LIFETIME_FIELDS = ['byteLength', 'createdAtMs', 'expiresAtMs'] as const;

/** Wire Metadata → upstream `SegmentMetadata` (segment-store.ts), values untouched. */
export function metadataFromWire(m: Params): Record<string, unknown> {
  return {
    partition: text(m, 'partition'),
    logEpoch: text(m, 'logEpoch'),
    table: text(m, 'table'),
    schemaVersion: integer(m, 'schemaVersion'),
    mediaType: text(m, 'mediaType'),
    scopeDigest: text(m, 'scopeDigest'),
    asOfCommitSeq: integer(m, 'asOfCommitSeq'),
    rowCount: integer(m, 'rowCount'),
    rowCursor: nullableText(m, 'rowCursor'),
    nextRowCursor: nullableText(m, 'nextRowCursor'),
  };
}

/** Wire Find key → upstream `SegmentFindKey` (segment-store.ts). */
export function findKeyFromWire(k: Params): Record<string, unknown> {
  return {
    partition: text(k, 'partition'),
    logEpoch: text(k, 'logEpoch'),
    table: text(k, 'table'),
    schemaVersion: integer(k, 'schemaVersion'),
    mediaType: text(k, 'mediaType'),
    scopeDigest: text(k, 'scopeDigest'),
    asOfCommitSeq: integer(k, 'asOfCommitSeq'),
  };
}

function pick(source: UpstreamRecord, fields: readonly string[], into: Params): Params {
  for (const field of fields) into[field] = source[field];
  return into;
}

function publicationToWire(publication: UpstreamRecord): Params {
  return pick(publication, LIFETIME_FIELDS, pick(publication, METADATA_FIELDS, {}));
}

/**
 * Upstream `SegmentRecord` → wire Record. A 0.22 record carries `scopeDigests` and
 * `publications` and is copied. A 0.21 record has neither: it is one publication by
 * construction (0.21 keeps one metadata set per id), so the driver writes it as upstream 0.22
 * reads such a record — `publicationsForRecord` of segment-store.ts 0.22, `scopeDigests`
 * `[scopeDigest]`, the record's own metadata and lifetime as its one publication.
 */
export function recordToWire(record: UpstreamRecord): Params {
  const wire = pick(record, LIFETIME_FIELDS, pick(record, METADATA_FIELDS, { segmentId: record.segmentId }));
  wire.scopeDigests = Array.isArray(record.scopeDigests) ? [...record.scopeDigests] : [record.scopeDigest];
  wire.publications = Array.isArray(record.publications)
    ? record.publications.map((p) => publicationToWire(p as UpstreamRecord))
    : [publicationToWire(record)];
  return wire;
}
