#include "harness/backends/postgres_database.hpp"

#include <set>

#include "harness/backends/postgres_connection_pool.hpp"
#include "harness/backends/random_name.hpp"

namespace ssp::harness {

PostgresTestDatabase::PostgresTestDatabase(const std::string& dsn)
    : connection_(take_postgres_connection(dsn)) {
  location_.backend = Backend::postgres;
  location_.pg_dsn = dsn;
  location_.pg_schema = random_name("ssp_t_");
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
  return_postgres_connection(location_.pg_dsn, std::move(connection_));
}

void PostgresTestDatabase::exec(const std::string& sql) {
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
  txn.exec(sql);
}

std::vector<std::string> PostgresTestDatabase::query_column(const std::string& sql) {
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
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
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
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

std::vector<std::string> PostgresTestDatabase::column_names(const std::string& table) {
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
  std::vector<std::string> names;
  for (const auto& row : txn.exec(
           "SELECT column_name FROM information_schema.columns WHERE table_schema = " +
           txn.quote(location_.pg_schema) + " AND table_name = " + txn.quote(table) +
           " ORDER BY ordinal_position")) {
    names.emplace_back(row[0].c_str());
  }
  return names;
}

void PostgresTestDatabase::drop_column(const std::string& table, const std::string& column) {
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
  txn.exec("ALTER TABLE " + txn.quote_name(table) + " DROP COLUMN " + txn.quote_name(column));
}

std::vector<std::string> PostgresTestDatabase::index_names(const std::string& table) {
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
  std::vector<std::string> names;
  for (const auto& row : txn.exec(
           "SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
           "JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
           "WHERE n.nspname = " + txn.quote(location_.pg_schema) + " AND t.relname = " +
           txn.quote(table) + " AND NOT x.indisprimary AND NOT EXISTS "
           "(SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) ORDER BY i.relname")) {
    names.emplace_back(row[0].c_str());
  }
  return names;
}

std::string PostgresTestDatabase::dump_all_tables() {
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
  const std::string schema = txn.quote(location_.pg_schema);
  const auto render = [](const pqxx::result& rows) {
    std::string out;
    for (const auto& row : rows) {
      for (pqxx::row::size_type i = 0; i < row.size(); ++i) {
        if (i) out += '|';
        out += row[i].is_null() ? "NULL" : row[i].c_str();
      }
      out += '\n';
    }
    return out;
  };
  std::string out = "== columns\n" +
                    render(txn.exec("SELECT table_name, column_name, data_type, is_nullable, "
                                    "column_default FROM information_schema.columns "
                                    "WHERE table_schema = " + schema +
                                    " ORDER BY table_name, ordinal_position"));
  // An index's definition names its table with the schema, which is this
  // test database's random name, not the candidate's state: left out, so
  // that two databases a candidate left alike dump alike.
  out += "== indexes\n" + render(txn.exec("SELECT tablename, indexname, "
                                          "replace(indexdef, ' ON ' || schemaname || '.', ' ON ') "
                                          "FROM pg_indexes "
                                          "WHERE schemaname = " + schema +
                                          " ORDER BY tablename, indexname"));
  out += "== constraints\n" +
         render(txn.exec("SELECT c.conrelid::regclass::text, c.conname, "
                         "pg_get_constraintdef(c.oid) FROM pg_constraint c "
                         "JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = " +
                         schema + " ORDER BY 1, 2"));
  const pqxx::result tables = txn.exec(
      "SELECT table_name, (SELECT count(*) FROM information_schema.columns c "
      "WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name) "
      "FROM information_schema.tables t WHERE table_schema = " + schema + " ORDER BY table_name");
  for (const auto& table : tables) {
    std::string order;
    for (int i = 1; i <= table[1].as<int>(); ++i) order += (i > 1 ? ", " : "") + std::to_string(i);
    out += std::string("== ") + table[0].c_str() + '\n' +
           render(txn.exec("SELECT * FROM " + txn.quote_name(table[0].c_str()) + " ORDER BY " +
                           order));
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

bool PostgresTestDatabase::inject_commit_failure() {
  // Every table of the candidate's schema, whatever their names: a push that
  // writes anything (a commit, a stored rejection) fails at its COMMIT.
  const std::vector<std::string> tables = query_column(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
      "AND table_type = 'BASE TABLE' ORDER BY table_name");
  for (const std::string& table : tables) {
    const std::string name = "ssp_injected_failure_" + std::to_string(triggers_.size());
    // io_error (58030): a failure of the database, not a constraint the data broke.
    exec("CREATE FUNCTION " + name + "() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN "
         "RAISE EXCEPTION 'ssp injected failure at COMMIT' USING ERRCODE = 'io_error'; END $fn$");
    exec("CREATE CONSTRAINT TRIGGER " + name + " AFTER INSERT OR UPDATE OR DELETE ON " +
         connection_->quote_name(table) + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " +
         name + "()");
    triggers_.push_back(name + " ON " + connection_->quote_name(table));
  }
  return true;
}

std::string PostgresTestDatabase::injected_name(const std::string& name) {
  return connection_->quote_name(location_.pg_schema) + "." + name;
}

void PostgresTestDatabase::inject_write_failure(int after_writes) {
  const std::vector<std::string> tables = query_column(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
      "AND table_type = 'BASE TABLE' ORDER BY table_name");
  // Qualified: the function runs on the store's connections, under their
  // search_path.
  const std::string budget = injected_name("ssp_injected_write_budget");
  const std::string function = injected_name("ssp_injected_write_failure");
  exec("CREATE TABLE " + budget + " (remaining bigint NOT NULL); INSERT INTO " + budget +
       " VALUES (" + std::to_string(after_writes) + ")");
  write_failure_ = true;
  // io_error (58030): a failure of the database, not of the data.
  exec("CREATE FUNCTION " + function + "() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN "
       "UPDATE " + budget + " SET remaining = remaining - 1; "
       "IF (SELECT remaining FROM " + budget + ") < 0 THEN "
       "RAISE EXCEPTION 'ssp injected write failure' USING ERRCODE = 'io_error'; END IF; "
       "IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW; END $fn$");
  const std::lock_guard lock(connection_mutex_);
  pqxx::nontransaction txn(*connection_);
  for (const auto& table : tables) {
    txn.exec("CREATE TRIGGER ssp_injected_write_failure BEFORE INSERT OR UPDATE OR DELETE ON " +
             txn.quote_name(table) + " FOR EACH ROW EXECUTE FUNCTION " + function + "()");
  }
}

void PostgresTestDatabase::clear_injected_failures() {
  for (const auto& trigger : triggers_) {
    exec("DROP TRIGGER IF EXISTS " + trigger);
    exec("DROP FUNCTION IF EXISTS " + trigger.substr(0, trigger.find(' ')) + "()");
  }
  triggers_.clear();
  if (write_failure_) {
    // CASCADE takes the triggers with the function.
    exec("DROP FUNCTION IF EXISTS " + injected_name("ssp_injected_write_failure") +
         "() CASCADE");
    exec("DROP TABLE IF EXISTS " + injected_name("ssp_injected_write_budget"));
  }
  write_failure_ = false;
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

bool PostgresTestDatabase::shows_lock_waits(int waiters) {
  // Backends of other tests' schemas wait for locks too: count only those
  // that already hold a lock on a relation of this test's schema, or whose
  // application_name is one of its schedule's sessions' (<schema>/<session>:
  // one waiting for an advisory lock may hold nothing in the schema yet).
  const auto count = query_column(
      "SELECT count(DISTINCT w.pid) FROM pg_locks w WHERE NOT w.granted AND (EXISTS ("
      "SELECT 1 FROM pg_locks h JOIN pg_class c ON c.oid = h.relation WHERE h.pid = w.pid "
      "AND h.granted AND c.relnamespace = to_regnamespace(current_schema())) OR w.pid IN ("
      "SELECT pid FROM pg_stat_activity WHERE starts_with(application_name, current_schema() || "
      "'/')))");
  return !count.empty() && std::stoi(count.front()) >= waiters;
}

bool PostgresTestDatabase::shows_sessions_waiting(
    const std::vector<std::string>& application_names) {
  if (application_names.empty()) return true;
  std::string names;
  {
    const std::lock_guard lock(connection_mutex_);
    for (const auto& name : application_names) {
      names += (names.empty() ? "" : ", ") + connection_->quote(name);
    }
  }
  const auto count = query_column(
      "SELECT count(DISTINCT a.application_name) FROM pg_locks w JOIN pg_stat_activity a ON "
      "a.pid = w.pid WHERE NOT w.granted AND a.application_name IN (" + names + ")");
  return !count.empty() &&
         std::stoul(count.front()) >= std::set<std::string>(application_names.begin(),
                                                             application_names.end()).size();
}

}  // namespace ssp::harness
