# The storage invariants of design/storage.md §7 (1–7, 11, 12) on SQLite and
# PostgreSQL, and the privacy boundary of pull's read (PULL-P1).
target_sources(ssp-conformance PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/storage_generators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_models.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_startup_properties.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_migration_properties.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_equivalence_properties.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pull_privacy_properties.cpp)
target_link_libraries(ssp-conformance PRIVATE nlohmann_json::nlohmann_json)
