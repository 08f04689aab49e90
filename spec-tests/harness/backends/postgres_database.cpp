#include "harness/backends/postgres_database.hpp"

#include <random>

namespace ssp::harness {
namespace {

std::string random_schema_name() {
  std::random_device random;
  std::mt19937_64 generator((static_cast<std::uint64_t>(random()) << 32) | random());
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string name = "ssp_t_";
  for (int i = 0; i < 12; ++i) name.push_back(kAlphabet[generator() % 36]);
  return name;
}

}  // namespace

PostgresTestDatabase::PostgresTestDatabase(const std::string& dsn) : connection_(dsn) {
  location_.backend = Backend::postgres;
  location_.pg_dsn = dsn;
  location_.pg_schema = random_schema_name();
  exec("CREATE SCHEMA " + location_.pg_schema);
  exec("SET search_path TO " + location_.pg_schema);
}

PostgresTestDatabase::~PostgresTestDatabase() {
  try {
    release_write_lock();
    exec("DROP SCHEMA IF EXISTS " + location_.pg_schema + " CASCADE");
  } catch (...) {
    // The schema is left behind; the throwaway cluster goes with it.
  }
}

void PostgresTestDatabase::exec(const std::string& sql) {
  pqxx::nontransaction txn(connection_);
  txn.exec(sql);
}

std::vector<std::string> PostgresTestDatabase::query_column(const std::string& sql) {
  pqxx::nontransaction txn(connection_);
  std::vector<std::string> values;
  for (const auto& row : txn.exec(sql)) {
    values.push_back(row[0].is_null() ? "NULL" : row[0].c_str());
  }
  return values;
}

std::string PostgresTestDatabase::dump_segment_tables() {
  const std::pair<const char*, const char*> tables[] = {
      {"sync_segments", "segment_id"},
      {"sync_segment_scopes", "segment_id, scope_digest"},
      {"sync_segment_publications", "segment_id, ord"},
  };
  pqxx::nontransaction txn(connection_);
  std::string out;
  for (const auto& [table, order] : tables) {
    out += std::string("== ") + table + '\n';
    for (const auto& row : txn.exec(std::string("SELECT * FROM ") + table + " ORDER BY " + order)) {
      for (pqxx::row::size_type i = 0; i < row.size(); ++i) {
        if (i) out += '|';
        out += row[i].is_null() ? "NULL" : row[i].c_str();
      }
      out += '\n';
    }
  }
  return out;
}

void PostgresTestDatabase::inject_insert_failure(const std::string& table, int after_rows) {
  const std::string name = "ssp_injected_failure_" + std::to_string(triggers_.size());
  const bool top_level = table == "sync_segments";
  // An existing segment's top level is rewritten by UPDATE: that fails always.
  const std::string condition =
      top_level ? "TG_OP = 'UPDATE' OR (SELECT count(*) FROM " + table +
                      " WHERE segment_id = NEW.segment_id) >= " + std::to_string(after_rows)
                : "(SELECT count(*) FROM " + table + " WHERE segment_id = NEW.segment_id) >= " +
                      std::to_string(after_rows);
  exec("CREATE FUNCTION " + name + "() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN IF " +
       condition + " THEN RAISE EXCEPTION 'ssp injected failure'; END IF; RETURN NEW; END $fn$");
  exec("CREATE TRIGGER " + name + " BEFORE INSERT OR UPDATE ON " + table +
       " FOR EACH ROW EXECUTE FUNCTION " + name + "()");
  triggers_.push_back(name + " ON " + table);
}

void PostgresTestDatabase::clear_injected_failures() {
  for (const auto& trigger : triggers_) {
    exec("DROP TRIGGER IF EXISTS " + trigger);
    exec("DROP FUNCTION IF EXISTS " + trigger.substr(0, trigger.find(' ')) + "()");
  }
  triggers_.clear();
}

void PostgresTestDatabase::hold_write_lock() {
  lock_conn_ = std::make_unique<pqxx::connection>(location_.pg_dsn);
  lock_txn_ = std::make_unique<pqxx::work>(*lock_conn_);
  lock_txn_->exec("SET LOCAL search_path TO " + location_.pg_schema);
  lock_txn_->exec(
      "LOCK TABLE sync_segments, sync_segment_scopes, sync_segment_publications "
      "IN ACCESS EXCLUSIVE MODE");
}

void PostgresTestDatabase::release_write_lock() {
  if (lock_txn_) lock_txn_->abort();
  lock_txn_.reset();
  lock_conn_.reset();
}

}  // namespace ssp::harness
