#include "partition_registry_writes.hpp"

namespace ssp::storage {

std::string_view registry_conflict_update(RegistryWrite write) {
  if (write == RegistryWrite::touch) {
    return "last_authenticated_at_ms = excluded.last_authenticated_at_ms";
  }
  return "log_epoch = excluded.log_epoch, epoch_required = excluded.epoch_required, "
         "last_authenticated_at_ms = excluded.last_authenticated_at_ms";
}

}  // namespace ssp::storage
