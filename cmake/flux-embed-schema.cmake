# The scenario schema (scenario/config/scenario.schema.json) compiled into
# the scenario library as a string, so that the parser reads its keys,
# types and ranges from the one file editors and Python also read. Included
# by CMakeLists.txt in both of its modes; sets
#   FLUX_SCHEMA_SOURCES  the generated source, to compile into the library
# Run as a script (cmake -P) it writes that source: -DIN=schema -DOUT=file.

if(CMAKE_SCRIPT_MODE_FILE)
  file(READ ${IN} flux_schema_text)
  file(
    WRITE ${OUT}
    "// Generated from scenario/config/scenario.schema.json; do not edit.\n"
    "namespace ns3\n{\nnamespace scenario\n{\n"
    "extern const char kScenarioSchemaText[];\n"
    "const char kScenarioSchemaText[] = R\"flux_schema(${flux_schema_text})flux_schema\";\n"
    "} // namespace scenario\n} // namespace ns3\n"
  )
  return()
endif()

set(FLUX_SCHEMA_SOURCES ${CMAKE_CURRENT_BINARY_DIR}/flux-schema/scenario-schema-text.cc)
add_custom_command(
  OUTPUT ${FLUX_SCHEMA_SOURCES}
  COMMAND ${CMAKE_COMMAND} -DIN=${FLUX_DIR}/scenario/config/scenario.schema.json
          -DOUT=${FLUX_SCHEMA_SOURCES} -P ${FLUX_DIR}/cmake/flux-embed-schema.cmake
  DEPENDS ${FLUX_DIR}/scenario/config/scenario.schema.json ${FLUX_DIR}/cmake/flux-embed-schema.cmake
  COMMENT "Embedding the scenario schema"
  VERBATIM
)
