#include "wire/table_window_values.hpp"

#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::wire {

Json table_window_query_to_json(const storage::TableWindowQuery& query) {
  return Json{{"table", query.table},
              {"scopeFilter", scope_map_to_json(query.scope_filter)},
              {"afterSeq", query.after_seq},
              {"throughSeq", query.through_seq},
              {"limitChanges", query.limit_changes}};
}

storage::TableWindowQuery table_window_query_from_fields(const Fields& f) {
  return storage::TableWindowQuery{
      f.text("table"), scope_map_from_json(f.at("scopeFilter"), f.path_of("scopeFilter")),
      f.integer("afterSeq"), f.integer("throughSeq"), f.integer("limitChanges")};
}

Json window_commit_to_json(const storage::WindowCommit& commit) {
  Json changes = Json::array();
  for (const storage::Change& change : commit.changes) changes.push_back(change_to_json(change));
  return Json{{"commitSeq", commit.commit_seq},
              {"createdAtMs", commit.created_at_ms},
              {"actorId", commit.actor_id},
              {"changes", std::move(changes)}};
}

storage::WindowCommit window_commit_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  storage::WindowCommit commit{f.integer("commitSeq"), f.integer("createdAtMs"),
                               f.text("actorId"), {}};
  const Json& changes = array_value(f.at("changes"), f.path_of("changes"));
  for (std::size_t i = 0; i < changes.size(); ++i) {
    commit.changes.push_back(change_from_json(changes[i], element_path(f.path_of("changes"), i)));
  }
  return commit;
}

Json table_window_to_json(const std::vector<storage::WindowCommit>& commits) {
  Json out = Json::array();
  for (const storage::WindowCommit& commit : commits) out.push_back(window_commit_to_json(commit));
  return Json{{"commits", std::move(out)}};
}

std::vector<storage::WindowCommit> table_window_from_json(const Json& value,
                                                          const std::string& path) {
  const Fields f(value, path);
  const Json& list = array_value(f.at("commits"), f.path_of("commits"));
  std::vector<storage::WindowCommit> commits;
  for (std::size_t i = 0; i < list.size(); ++i) {
    commits.push_back(window_commit_from_json(list[i], element_path(f.path_of("commits"), i)));
  }
  return commits;
}

}  // namespace ssp::wire
