# Segment download (invariant-15 oracle on every backend), scope digest and
# UTF-16 order properties (issue 3).
ssp_add_property_executable(ssp-download-properties download-properties
  ${CMAKE_CURRENT_SOURCE_DIR}/download_oracle_properties.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/download_scope_digest_properties.cpp)
