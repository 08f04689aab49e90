# The push pipeline against an independent model (PUSH-MODEL-1), on SQLite and
# PostgreSQL.
target_sources(ssp-conformance PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/push_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/push_model_test.cpp)
