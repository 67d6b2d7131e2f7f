# cmake -DCOMMAND="prog;arg;..." -DEXPECT_RC=1 -DEXPECT_STDERR=regex [-DCHILD_PRELOAD=a.so:b.so]
#       -P expect_exit.cmake
# Passes when COMMAND exits with EXPECT_RC and its stderr matches EXPECT_STDERR.
# EXPECT_RC=failure accepts any failure, a signal (abort) included.
if(CHILD_PRELOAD)
  set(ENV{LD_PRELOAD} "${CHILD_PRELOAD}")  # the child only (sanitizer runs)
endif()
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT_RC STREQUAL "failure")
  if("${rc}" STREQUAL "0")
    message(FATAL_ERROR "exit status 0, expected a failure\nstdout: ${out}\nstderr: ${err}")
  endif()
elseif(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}':\n${err}")
endif()
