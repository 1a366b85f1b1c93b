# Builds tests/consumer against rffstream and runs its example.
#   cmake -DMODE=installed|subdirectory -DSOURCE_DIR=... -DBUILD_DIR=... -DWORK_DIR=... -P this
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGV}\n${output}")
  endif()
  set(last_output "${output}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "installed")
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  set(configure_arguments -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  set(configure_arguments -DRFFSTREAM_SOURCE_DIR=${SOURCE_DIR})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -G Ninja
    -DCMAKE_BUILD_TYPE=Release ${configure_arguments})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/embedding_example)
if(NOT last_output MATCHES "progressive rmse 0\\.0[0-9]+")
  message(FATAL_ERROR "unexpected example output: ${last_output}")
endif()
message(STATUS "example printed: ${last_output}")
file(REMOVE_RECURSE ${WORK_DIR})
