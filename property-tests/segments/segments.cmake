# Segment store properties: the model-based test and the concurrency tests.
# The concurrency tests, the model and the case database are compiled into
# ssp_race_tests (spec-tests/CMakeLists.txt), which ssp-conformance links.
file(GLOB SSP_SEGMENT_PROPERTY_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/segment_*.cpp)
list(REMOVE_ITEM SSP_SEGMENT_PROPERTY_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/segment_concurrency_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/segment_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/segment_case_database.cpp)
target_sources(ssp-conformance PRIVATE ${SSP_SEGMENT_PROPERTY_SOURCES})
# The model computes content addresses itself rather than through the reference.
target_link_libraries(ssp-conformance PRIVATE OpenSSL::Crypto)
