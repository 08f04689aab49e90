#include "wire/declared_command.hpp"

#include <array>
#include <charconv>
#include <stdexcept>
#include <utility>

namespace ssp::wire {
namespace {

using Kind = DeclaredCommand::Kind;
using push::CommandMutation;
using push::OperationKind;

constexpr const char* kTable = "tasks";
constexpr std::array<std::pair<Kind, const char*>, 8> kKindNames{{
    {Kind::increment, "increment"},
    {Kind::move, "move"},
    {Kind::fail, "throw"},
    {Kind::no_mutations, "no-mutations"},
    {Kind::unknown_table, "unknown-table"},
    {Kind::empty_row_id, "empty-row-id"},
    {Kind::partial_row, "partial-row"},
    {Kind::read_unknown_table, "read-unknown-table"},
}};

// A tasks row: id, project_id, title, done.
storage::Row task(const std::string& id, const std::string& project, const std::string& title) {
  return storage::Row{id, project, title, false};
}

const std::string* text_at(const storage::Row& row, std::size_t column) {
  return column < row.size() ? std::get_if<std::string>(&row[column]) : nullptr;
}

std::int64_t counter_of(const std::optional<storage::Row>& row) {
  const std::string* title = row ? text_at(*row, 2) : nullptr;
  std::int64_t count = 0;
  if (title != nullptr) std::from_chars(title->data(), title->data() + title->size(), count);
  return count;
}

std::vector<CommandMutation> run(const DeclaredCommand& declared, push::CommandReader& read) {
  const auto upsert = [](storage::Row row) {
    const std::string id = std::get<std::string>(row[0]);
    return std::vector{CommandMutation{OperationKind::upsert, kTable, id, std::move(row)}};
  };
  switch (declared.kind) {
    case Kind::increment: {
      const auto stored = read.get_row(kTable, declared.row_id);
      storage::Row counted = stored ? *stored : task(declared.row_id, declared.project, "");
      counted[2] = std::to_string(counter_of(stored) + 1);
      return upsert(std::move(counted));
    }
    case Kind::move: {
      const auto stored = read.get_row(kTable, declared.row_id);
      if (!stored) return {};
      storage::Row moved = *stored;
      moved[1] = declared.project;
      return upsert(std::move(moved));
    }
    case Kind::fail:
      throw std::runtime_error("the declared command throws");
    case Kind::no_mutations:
      return {};
    case Kind::unknown_table:
      return {CommandMutation{OperationKind::upsert, "no_such_table", declared.row_id,
                              task(declared.row_id, declared.project, "x")}};
    case Kind::empty_row_id:
      return {CommandMutation{OperationKind::remove, kTable, "", std::nullopt}};
    case Kind::partial_row:
      return {CommandMutation{OperationKind::upsert, kTable, declared.row_id,
                              storage::Row{declared.row_id, declared.project}}};
    case Kind::read_unknown_table:
      read.get_row("no_such_table", declared.row_id);
      return {};
  }
  return {};
}

}  // namespace

Json declared_command_to_json(const DeclaredCommand& command) {
  const char* kind = "increment";
  for (const auto& [each, name] : kKindNames) {
    if (each == command.kind) kind = name;
  }
  return Json{{"kind", kind}, {"rowId", command.row_id}, {"project", command.project}};
}

DeclaredCommand declared_command_from_json(const Json& value, const std::string& path) {
  const Fields fields(value, path);
  DeclaredCommand command;
  const std::string kind = fields.text("kind");
  bool known = false;
  for (const auto& [each, name] : kKindNames) {
    if (kind == name) {
      command.kind = each;
      known = true;
    }
  }
  if (!known) throw WireError(fields.path_of("kind") + ": not a declared command kind");
  command.row_id = fields.text("rowId");
  command.project = fields.text("project");
  return command;
}

push::RemoteCommand reference_command(const DeclaredCommand& declared, bool authorized) {
  return push::RemoteCommand{
      [authorized](const push::CommandContext&) { return authorized; },
      [declared](const push::CommandContext&, push::CommandReader& read) {
        return run(declared, read);
      }};
}

}  // namespace ssp::wire
