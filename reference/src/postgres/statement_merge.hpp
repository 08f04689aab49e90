// Fewer statements for a batch (issue 22): the one-row INSERTs a push stages,
// one per operation and table, sent as multi-row INSERTs. Each statement a
// PostgreSQL batch carries costs the server its own executor start and end,
// and a staged push of N operations carried about 4N of them, where the rows
// floor writes each table's rows with one.
//
// The rule is pure: it reads Statement::writes, insert and independent, which
// the statement builders set (storage_postgres_sql.hpp), and sends nothing.
#pragma once

#include <cstddef>
#include <vector>

#include "storage_postgres_sql.hpp"

namespace ssp::storage {

// Rows one merged INSERT holds at most: its parameters stay well under
// PostgreSQL's 65,535, and a connection prepares at most this many shapes of
// each INSERT.
inline constexpr std::size_t kMaxMergedRows = 32;

// `statements` as a batch should send them. A statement moves earlier only
// past statements that write other rows (Statement::writes; a statement whose
// writes are unknown lets nothing past):
// - a one-row INSERT (Statement::insert) joins the latest earlier INSERT of
//   the same shape it can reach, which becomes a multi-row INSERT, while that
//   holds fewer than kMaxMergedRows rows and none of this one's row; rows keep
//   their order within it;
// - an independent statement (Statement::independent) moves as early as it
//   can, so that it stops no INSERT of another row from reaching its group;
// - any other statement keeps its place.
//
// What the batch writes is then what `statements` write, except where a
// relational constraint is involved: an INSERT run earlier may find a unique
// value that a statement it moved past would have freed, so a violation may
// appear at another statement than in `statements`, or where `statements`
// have none. (No move can hide a violation: only INSERTs and statements on
// tables without cross-row constraints move, and the storage's DDL has no
// constraint checked at the end of a statement.) A caller that needs the
// violating statement runs `statements` one at a time again, as the push
// session's replay does.
std::vector<Statement> merge_row_inserts(const std::vector<const Statement*>& statements);

}  // namespace ssp::storage
