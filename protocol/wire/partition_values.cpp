#include "wire/partition_values.hpp"

namespace ssp::wire {

Json partition_entry_to_json(const storage::PartitionEntry& entry) {
  return Json{{"partition", entry.partition},
              {"logEpoch", entry.log_epoch},
              {"epochRequired", entry.epoch_required},
              {"lastAuthenticatedAtMs", entry.last_authenticated_at_ms}};
}

storage::PartitionEntry partition_entry_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return storage::PartitionEntry{f.text("partition"), f.text("logEpoch"),
                                 f.boolean("epochRequired"), f.integer("lastAuthenticatedAtMs")};
}

Json partition_registry_to_json(const std::vector<storage::PartitionEntry>& entries) {
  Json out = Json::array();
  for (const storage::PartitionEntry& entry : entries) {
    out.push_back(partition_entry_to_json(entry));
  }
  return Json{{"entries", std::move(out)}};
}

std::vector<storage::PartitionEntry> partition_registry_from_json(const Json& value,
                                                                  const std::string& path) {
  const Fields f(value, path);
  const Json& list = array_value(f.at("entries"), f.path_of("entries"));
  std::vector<storage::PartitionEntry> entries;
  for (std::size_t i = 0; i < list.size(); ++i) {
    entries.push_back(partition_entry_from_json(list[i], element_path(f.path_of("entries"), i)));
  }
  return entries;
}

}  // namespace ssp::wire
