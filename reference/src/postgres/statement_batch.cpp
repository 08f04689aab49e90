#include "statement_batch.hpp"

namespace ssp::storage {

void StatementBatch::add(const Statement& statement) {
  std::string text = "EXECUTE " + prepared_.prepared_name(statement.sql);
  const auto& values = statement.params.values();
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += i == 0 ? "(" : ", ";
    text += values[i] ? "'" + connection_.esc(*values[i]) + "'" : std::string("NULL");
  }
  if (!values.empty()) text += ")";
  add(text);
}

void StatementBatch::add(std::string_view sql) {
  if (!text_.empty()) text_ += ";\n";
  text_ += sql;
}

std::string StatementBatch::take() {
  std::string text = std::move(text_);
  text_.clear();
  return text;
}

}  // namespace ssp::storage
