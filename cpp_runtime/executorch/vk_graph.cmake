# The VK00 reader (vk_graph.cpp) as the OBJECT library webgpu_vk_graph, with the C++
# flatbuffers code for the graph generated from the schema the executorch wheel ships
# (never committed). Included by the ExecuTorch section of the top-level CMakeLists.txt
# and by the browser build (web/CMakeLists.txt); needs WEBGPU_ET_DIR (the executorch
# package) and WEBGPU_WARNINGS. flatc and the headers must be the same flatbuffers release.
find_program(WEBGPU_FLATC flatc REQUIRED)
# The host's headers (header-only for reading); a cross build (Emscripten) looks for them
# outside its sysroot too.
find_path(WEBGPU_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h
          PATHS /usr/local/include /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
execute_process(COMMAND "${WEBGPU_FLATC}" --version OUTPUT_VARIABLE flatc_version)
file(STRINGS "${WEBGPU_FLATBUFFERS_INCLUDE}/flatbuffers/base.h" fb_version_lines
     REGEX "#define FLATBUFFERS_VERSION_(MAJOR|MINOR|REVISION) ")
string(REGEX REPLACE "[^0-9]*([0-9]+)[^0-9]*([0-9]+)[^0-9]*([0-9]+).*" "\\1.\\2.\\3"
       fb_header_version "${fb_version_lines}")
if(NOT flatc_version MATCHES "${fb_header_version}")
  message(FATAL_ERROR "${WEBGPU_FLATC} (${flatc_version}) does not match the flatbuffers headers "
                      "in ${WEBGPU_FLATBUFFERS_INCLUDE} (${fb_header_version})")
endif()
set(webgpu_fb_include "${WEBGPU_FLATBUFFERS_INCLUDE}")
if(CMAKE_CROSSCOMPILING)
  # Only the flatbuffers folder: the host's include directory would put its C library
  # in front of the target's.
  set(webgpu_fb_include "${CMAKE_BINARY_DIR}/flatbuffers_include")
  file(COPY "${WEBGPU_FLATBUFFERS_INCLUDE}/flatbuffers" DESTINATION "${webgpu_fb_include}")
endif()
set(WEBGPU_VK_SCHEMA "${WEBGPU_ET_DIR}/backends/vulkan/serialization/schema.fbs")
set(WEBGPU_VK_GEN_DIR "${CMAKE_BINARY_DIR}/vk_schema")
add_custom_command(
  OUTPUT "${WEBGPU_VK_GEN_DIR}/schema_generated.h"
  COMMAND "${WEBGPU_FLATC}" --cpp -o "${WEBGPU_VK_GEN_DIR}" "${WEBGPU_VK_SCHEMA}"
  DEPENDS "${WEBGPU_VK_SCHEMA}"
  COMMENT "flatc --cpp ${WEBGPU_VK_SCHEMA}"
  VERBATIM)
add_custom_target(webgpu_vk_schema DEPENDS "${WEBGPU_VK_GEN_DIR}/schema_generated.h")

# The VK00 reader needs no ExecuTorch headers; the backend and runner do.
add_library(webgpu_vk_graph OBJECT "${CMAKE_SOURCE_DIR}/cpp_runtime/executorch/vk_graph.cpp")
add_dependencies(webgpu_vk_graph webgpu_vk_schema)
target_include_directories(webgpu_vk_graph PUBLIC "${CMAKE_SOURCE_DIR}/cpp_runtime/executorch"
                           PRIVATE "${WEBGPU_VK_GEN_DIR}" "${webgpu_fb_include}"
                                   "${CMAKE_SOURCE_DIR}/cpp_runtime/src")
target_link_libraries(webgpu_vk_graph PUBLIC webgpu_delegate)
target_compile_options(webgpu_vk_graph PRIVATE ${WEBGPU_WARNINGS})
