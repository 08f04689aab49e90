// storage::PushTransaction over a driver's tx.* methods
// (docs/driver-protocol.md, "transactions"): one request per step, each
// returning when the candidate's statement returned.
#pragma once

#include <memory>
#include <string>

#include "harness/driver/driver_handle.hpp"
#include "ssp/storage/push_transaction.hpp"

namespace ssp::harness {

// Calls storage.begin on `storage`'s process. The transaction keeps the
// storage's handle, so the storage closes only after its transactions.
// Destruction sends tx.close (which rolls an unfinished one back); a failure
// there is added to the running test.
std::unique_ptr<storage::PushTransaction> begin_driver_push_transaction(
    std::shared_ptr<DriverHandle> storage, const std::string& partition);

}  // namespace ssp::harness
