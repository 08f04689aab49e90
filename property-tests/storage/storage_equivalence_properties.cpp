// Backend equivalence (design/storage.md §7, invariant 12): the same
// operations on SQLite and PostgreSQL give the same results — reports,
// refusals (reason and text), markers, rows and projections.
#include <nlohmann/json.hpp>

#include "storage_property_support.hpp"

namespace ssp::properties {
namespace {

using harness::Backend;
using harness::record_spec;
using storage::SchemaReport;

std::string hex(const storage::Bytes& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t byte : bytes) {
    out.push_back(kHex[byte >> 4]);
    out.push_back(kHex[byte & 0x0f]);
  }
  return out;
}

// A value as text both backends must agree on; json compared as parsed JSON.
std::string render(const storage::RowValue& value, storage::ColumnType type) {
  if (std::holds_alternative<std::monostate>(value)) return "NULL";
  if (const auto* text = std::get_if<std::string>(&value)) {
    return type == storage::ColumnType::json ? nlohmann::json::parse(*text).dump() : *text;
  }
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  if (const auto* number = std::get_if<double>(&value)) {
    return "f" + std::to_string(std::bit_cast<std::uint64_t>(*number));
  }
  if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  return "x" + hex(std::get<storage::Bytes>(value));
}

// One step of the shared script.
struct Step {
  storage::ServerSchema schema;
  std::vector<GeneratedRow> writes;  // upserted after the startup, if it succeeds
};

// Runs `steps` on `db` and writes down everything observable.
std::string transcript(harness::TestDatabase& db, harness::Candidate& candidate,
                       const std::vector<Step>& steps, const std::vector<GeneratedRow>& probes) {
  std::ostringstream out;
  for (const Step& step : steps) {
    auto storage = candidate.open_server_storage(db.location(), {});
    const auto schema = harness::compiled(step.schema);
    bool ready = false;
    try {
      const SchemaReport report = storage->ensure_schema(schema);
      ready = true;
      out << "ensure " << step.schema.version << ": action " << int(report.action) << " statements "
          << report.statements.size() << " rewritten " << report.rewritten_rows << " retired";
      for (const auto& table : report.retired_tables) out << " " << table;
      out << "\n";
    } catch (const storage::SchemaRefusal& refusal) {
      out << "refused " << storage::refusal_reason_name(refusal.reason()) << ": " << refusal.what()
          << "\n";
    }
    out << "marker " << harness::marker_text(db) << "\n";
    if (!ready) continue;
    for (const GeneratedRow& write : step.writes) {
      try {
        storage->upsert_row(write.partition, write.table, write.row);
        out << "upsert " << write.partition << "/" << write.table << "/" << write.row.row_id
            << "\n";
      } catch (const storage::RowDecodeError& error) {
        out << "upsert refused: " << error.what() << "\n";
      } catch (const StorageError&) {
        out << "upsert failed in the database\n";  // driver texts differ by design
      }
    }
    for (const GeneratedRow& probe : probes) {
      out << "get " << probe.partition << "/" << probe.table << "/" << probe.row.row_id << ": ";
      try {
        const auto row = storage->get_row(probe.partition, probe.table, probe.row.row_id);
        if (!row) {
          out << "absent\n";
          continue;
        }
        out << row->server_version << " " << hex(row->payload);
        for (const auto& [variable, value] : row->scopes) out << " " << variable << "=" << value;
        const auto* table = schema.find(probe.table);
        if (table->materialized) {
          const auto projection =
              *storage->read_projection(probe.partition, probe.table, probe.row.row_id);
          for (std::size_t i = 0; i < projection.size(); ++i) {
            out << " | " << render(projection[i], table->columns()[i].type);
          }
        }
        out << "\n";
      } catch (const storage::UnknownTable& error) {
        out << error.what() << "\n";
      }
    }
  }
  return out.str();
}

class BackendEquivalence : public harness::StorageTest {};
// Runs once (the parameter is unused): every case uses both backends.
INSTANTIATE_TEST_SUITE_P(, BackendEquivalence, ::testing::Values(Backend::postgres),
                         harness::storage_param_name);

TEST_P(BackendEquivalence, INV_12_SqliteAndPostgresAgreeOnEveryObservableResult) {
  record_spec("§2.4", "INV-12");
  check_storage_property(
      [this] {
        const auto first = *gen_schema();
        std::vector<Step> steps = {{first, *gen_rows(harness::compiled(first))}};
        storage::ServerSchema current = first;
        for (int n = *rc::gen::inRange(1, 4); n > 0; --n) {
          const std::string kind = *rc::gen::elementOf(
              std::vector<std::string>{"bump", "break", "drift", "reopen", "older"});
          storage::ServerSchema next = current;
          if (kind == "bump") next = (*gen_append_only_evolution(current)).first;
          if (kind == "break") next = (*gen_breaking_evolution(current)).first;
          if (kind == "drift") next = (*gen_layout_mutation(current)).first;
          if (kind == "older") next.version -= 1;
          steps.push_back({next, *gen_rows(harness::compiled(next))});
          if (kind == "bump") current = next;
        }
        std::vector<GeneratedRow> probes;
        for (const Step& step : steps)
          probes.insert(probes.end(), step.writes.begin(), step.writes.end());
        auto sqlite = harness::create_test_database(Backend::sqlite);
        auto postgres = harness::create_test_database(Backend::postgres);
        const std::string on_sqlite = transcript(*sqlite, candidate(), steps, probes);
        const std::string on_postgres = transcript(*postgres, candidate(), steps, probes);
        RC_ASSERT(on_sqlite == on_postgres);
      },
      15);
}

}  // namespace
}  // namespace ssp::properties
