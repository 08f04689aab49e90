# Segment download (the invariant-15 oracle on every backend, also used by the
# model-based test), scope digest and UTF-16 order properties (issue 3).
target_sources(ssp-conformance PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/download_oracle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/download_oracle_properties.cpp
  ${CMAKE_CURRENT_LIST_DIR}/download_scope_digest_properties.cpp)
