# Segment store properties: the model-based test and the concurrency tests.
file(GLOB SSP_SEGMENT_PROPERTY_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/segment_*.cpp)
target_sources(ssp-conformance PRIVATE ${SSP_SEGMENT_PROPERTY_SOURCES})
# The model computes content addresses itself rather than through the reference.
target_link_libraries(ssp-conformance PRIVATE OpenSSL::Crypto)
