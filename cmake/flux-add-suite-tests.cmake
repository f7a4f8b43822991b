# Included by ctest (through the TEST_INCLUDE_FILES property set in the
# top-level CMakeLists.txt) each time it starts: asks flux-test-runner for its
# ns-3 TestSuites and declares one CTest test per suite, named "ns3:<suite>".
#
# Inputs: FLUX_TEST_RUNNER (path of the runner), FLUX_TEST_WORKDIR.
# A runner that is missing, fails to list, or lists no suite yields one
# failing test instead, so that a broken build cannot pass as "no tests".

if(NOT EXISTS "${FLUX_TEST_RUNNER}")
  add_test([==[ns3:flux-test-runner-missing]==] "${CMAKE_COMMAND}" -E echo
           "flux-test-runner was not built: ${FLUX_TEST_RUNNER}")
  set_tests_properties([==[ns3:flux-test-runner-missing]==] PROPERTIES WILL_FAIL TRUE)
  return()
endif()

execute_process(
  COMMAND "${FLUX_TEST_RUNNER}" --print-test-name-list
  WORKING_DIRECTORY "${FLUX_TEST_WORKDIR}"
  OUTPUT_VARIABLE flux_suite_list
  ERROR_VARIABLE flux_suite_err
  RESULT_VARIABLE flux_suite_rc
  TIMEOUT 120
)
string(REPLACE "\r" "" flux_suite_list "${flux_suite_list}")
string(REPLACE ";" "_" flux_suite_list "${flux_suite_list}")
string(REPLACE "\n" ";" flux_suite_list "${flux_suite_list}")

set(flux_suites)
foreach(line IN LISTS flux_suite_list)
  string(STRIP "${line}" line)
  if(NOT line STREQUAL "")
    list(APPEND flux_suites "${line}")
  endif()
endforeach()

if(NOT flux_suite_rc EQUAL 0 OR NOT flux_suites)
  add_test([==[ns3:suite-discovery]==] "${CMAKE_COMMAND}" -E echo
           "flux-test-runner --print-test-name-list failed (exit ${flux_suite_rc}) or listed no suite: ${flux_suite_err}")
  set_tests_properties([==[ns3:suite-discovery]==] PROPERTIES WILL_FAIL TRUE)
  return()
endif()

foreach(suite IN LISTS flux_suites)
  # The runner exits non-zero when a test case fails, crashes, or when no
  # suite matches the name; --verbose prints each case and failure details.
  add_test("ns3:${suite}" "${FLUX_TEST_RUNNER}" "--test-name=${suite}" --verbose)
  set_tests_properties("ns3:${suite}" PROPERTIES
    WORKING_DIRECTORY "${FLUX_TEST_WORKDIR}"
    LABELS "ns3-testsuite"
    TIMEOUT 1800
  )
endforeach()
