# Run by the webgpu_codegen_check target before the delegate compiles:
#   cmake -DPYTHON=<python> -DSOURCE_DIR=<repo> -P tools/codegen_check.cmake
# Fails the build with `python -m codegen check`'s message when generated/ is
# stale. Without generated/webgpu_srcs.cmake nothing generated is compiled, so
# there is nothing to be stale and the check is skipped (said so loudly).
if(NOT EXISTS "${SOURCE_DIR}/generated/webgpu_srcs.cmake")
  message(STATUS "codegen check skipped: ${SOURCE_DIR}/generated/webgpu_srcs.cmake does not exist "
                 "(no generated sources are compiled)")
  return()
endif()
execute_process(
  COMMAND "${PYTHON}" -m codegen check
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "python -m codegen check failed (exit ${rc}):\n${out}${err}")
endif()
message(STATUS "codegen check: generated/ is up to date")
