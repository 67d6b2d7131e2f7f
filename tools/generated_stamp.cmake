# Run by the build before the delegate compiles:
#   cmake -DSOURCE_DIR=<repo> -DOUTPUT=<header> -P tools/generated_stamp.cmake
# Writes OUTPUT (only when its text changes) with WEBGPU_GENERATED_STAMP: the SHA-256
# of the generated sources the delegate compiles (each generated/**/*.cpp and *.h,
# sorted by path, as "<path> <sha256 of its bytes>\n" lines). The runners print it
# (--build-stamp) and codegen/paths.py computes the same hash of generated/, so a runner
# built from older generated sources is refused instead of silently running them.
file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}/generated"
     "${SOURCE_DIR}/generated/*.cpp" "${SOURCE_DIR}/generated/*.h")
list(SORT files)
set(lines "")
foreach(f IN LISTS files)
  file(SHA256 "${SOURCE_DIR}/generated/${f}" digest)
  string(APPEND lines "${f} ${digest}\n")
endforeach()
string(SHA256 stamp "${lines}")
string(CONCAT content "// Written by tools/generated_stamp.cmake from generated/ - DO NOT EDIT.\n"
       "#pragma once\n\n#define WEBGPU_GENERATED_STAMP \"${stamp}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
