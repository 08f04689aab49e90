// The candidate's positional row codec (SSP2 §2.4). No store, no database.
#pragma once

#include <span>

#include "ssp/storage/column_layout.hpp"
#include "ssp/storage/row.hpp"

namespace ssp::harness {

class RowArea {
 public:
  virtual ~RowArea() = default;

  // The payload of `row` under `columns`. Throws InvalidArgument naming the
  // column the row cannot be written in (wrong kind, NULL where not nullable,
  // unsafe integer, text that is not UTF-8, …).
  virtual storage::Bytes encode(std::span<const storage::ColumnLayout> columns,
                                const storage::Row& row) = 0;

  // The row `payload` holds under `columns`. Throws RowDecodeError naming the
  // column for every payload the codec refuses.
  virtual storage::Row decode(std::span<const storage::ColumnLayout> columns,
                              std::span<const std::uint8_t> payload) = 0;
};

}  // namespace ssp::harness
