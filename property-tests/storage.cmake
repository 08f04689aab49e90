# ssp-storage-properties: the storage invariants of design/storage.md §7
# (1–7, 11, 12) on SQLite and PostgreSQL. Included from CMakeLists.txt here.
add_executable(ssp-storage-properties
  ${CMAKE_CURRENT_LIST_DIR}/storage_generators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_startup_properties.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_migration_properties.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage_equivalence_properties.cpp)
target_include_directories(ssp-storage-properties PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(ssp-storage-properties PRIVATE
  ssp_harness rapidcheck GTest::gtest_main nlohmann_json::nlohmann_json)
add_test(NAME storage_properties COMMAND ssp-storage-properties --gtest_brief=1)
