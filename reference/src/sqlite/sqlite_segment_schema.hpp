// The upstream 0.22 segment tables on SQLite and the 0.21 → 0.22 upgrade.
#pragma once

#include "sqlite_connection.hpp"

namespace ssp::sqlite {

// Brings the database behind `connection` to the 0.22 layout, exactly as the
// upstream store does on construction, each step idempotent and autocommitted
// so a crash part-way is finished by the next open:
//   create the three tables; add log_epoch to a pre-epoch sync_segments;
//   backfill sync_segment_scopes from the top-level digests (every open);
// plus the find-key indexes (DECISION D8), which upstream files tolerate.
void upgrade_segment_tables(Connection& connection);

// For a read-only connection: the same view of the database that
// upgrade_segment_tables would leave, built from TEMP tables and views that
// shadow the missing or outdated main ones. The file is not changed.
void emulate_segment_upgrade(Connection& connection);

}  // namespace ssp::sqlite
