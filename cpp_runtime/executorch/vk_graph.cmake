# The VK00 reader (vk_graph.cpp, vk_format.cpp, vk_fusion.cpp) as the OBJECT library webgpu_vk_graph,
# with the C++ flatbuffers code for the graph generated from the schema the executorch
# wheel ships (never committed). Included by the ExecuTorch section of the top-level
# CMakeLists.txt and by the browser build (web/CMakeLists.txt); needs WEBGPU_ET_DIR (the
# executorch package) and WEBGPU_WARNINGS. flatc and the headers must be the same
# flatbuffers release (tools/find_flatc.cmake).
# The host's headers (header-only for reading); a cross build (Emscripten) looks for them
# outside its sysroot too.
find_path(WEBGPU_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h
          PATHS /usr/local/include /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
include("${CMAKE_SOURCE_DIR}/tools/find_flatc.cmake")
webgpu_find_flatc("${WEBGPU_FLATBUFFERS_INCLUDE}" WEBGPU_FLATC)
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
add_library(webgpu_vk_graph OBJECT "${CMAKE_SOURCE_DIR}/cpp_runtime/executorch/vk_graph.cpp"
                                   "${CMAKE_SOURCE_DIR}/cpp_runtime/executorch/vk_format.cpp"
                                   "${CMAKE_SOURCE_DIR}/cpp_runtime/executorch/vk_fusion.cpp")
add_dependencies(webgpu_vk_graph webgpu_vk_schema)
target_include_directories(webgpu_vk_graph PUBLIC "${CMAKE_SOURCE_DIR}/cpp_runtime/executorch"
                           PRIVATE "${WEBGPU_VK_GEN_DIR}" "${webgpu_fb_include}"
                                   "${CMAKE_SOURCE_DIR}/cpp_runtime/src")
target_link_libraries(webgpu_vk_graph PUBLIC webgpu_delegate)
target_compile_options(webgpu_vk_graph PRIVATE ${WEBGPU_WARNINGS})
