#include "webgpu_delegate/graph.h"

static void dup_handler_b(webgpu_delegate::WebGPUGraph&,
                          const std::vector<webgpu_delegate::ValueRef>&) {}
WEBGPU_REGISTER_OP(test.dup.default, dup_handler_b, None);
