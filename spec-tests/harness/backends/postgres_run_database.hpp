// The PostgreSQL database of one run of a test executable, in which every
// PostgresTestDatabase creates its schema.
#pragma once

#include <string>

namespace ssp::harness {

// A connection string for this run's own database: created on first use in
// the server `server_dsn` names (a database `ssp_run_<random>`, from
// template1), and dropped when the process exits. Thread-safe; every call
// returns the same text. Throws pqxx's error when the server refuses.
//
// Why a database per run and not only a schema per test: advisory locks are
// database-wide, and the reference takes one per segment id (D6). Two runs in
// one database (CTest runs two entries at a time against one cluster) would
// contend for the locks of the same test payloads across their schemas, and a
// test that observes a held lock would see the other run's.
const std::string& run_database_dsn(const std::string& server_dsn);

}  // namespace ssp::harness
