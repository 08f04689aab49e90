// The hello exchange (docs/driver-protocol.md, "hello"): what a driver says
// it is and implements.
#pragma once

#include <set>
#include <string>

#include "harness/driver/driver_process.hpp"

namespace ssp::harness {

struct DriverHello {
  std::int64_t protocol = 0;  // the version both ends speak: 3, or 2 or 1 for an older driver
  std::string name;
  std::string version;
  std::set<std::string> backends;
  std::set<std::string> areas;
  bool hooks = false;
  bool hasher = false;
  bool read_only = false;  // "readOnly"; absent means false (added after version 1 shipped)
  // Version 2, each optional and false when absent.
  bool push = false;
  bool transactions = false;
  bool push_hooks = false;  // "pushHooks"
  bool commands = false;    // "commands"
  bool authoritative_queries = false;  // "queryAuthoritative"
  bool upstream_tables = false;        // "upstreamTables"
  // "coordinator": pushes are serialized outside the database, and
  // coordinator.waiting says how many wait (version 2, fourth revision).
  bool coordinator = false;
  // "commandCallbacks": command.run calls the validators and the notifier
  // it is sent with, as push.run does (version 2, fifth revision).
  bool command_callbacks = false;
  // "ensuredSchema": push.run and command.run run under the schema of the
  // storage's last successful storage.ensure_schema, so the harness sends
  // them none (version 2, sixth revision).
  bool ensured_schema = false;
  // Version 3, optional and false when absent. "tableWindow": the storage
  // serves storage.read_table_window, pull's read.
  bool table_window = false;
  // "partitionRegistry": storage.touch_partition, rotate_partition_log_epoch,
  // get_partition_log_epoch and list_partition_registry.
  bool partition_registry = false;
  // "schemaReport": absent means true, as every driver answered a report
  // before the field existed (version 2, third revision).
  bool schema_reports = true;
};

// Sends hello for the newest version on `process`, and for each older one
// again while the driver answers ssp.unsupported (docs/driver-protocol.md, "Versions"); reads
// the answer strictly. Throws DriverError when the answer is malformed, names
// another version than the one asked for, or version 1 is refused too.
DriverHello say_hello(DriverProcess& process);

}  // namespace ssp::harness
