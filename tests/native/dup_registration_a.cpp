// With dup_registration_b.cpp: two WEBGPU_REGISTER_OP for one target. The
// program must die at start-up naming the target and both registrants
// (ctest checks the message); main() is never reached.
#include <cstdio>

#include "webgpu_delegate/graph.h"

static void dup_handler_a(webgpu_delegate::WebGPUGraph&,
                          const std::vector<webgpu_delegate::ValueRef>&) {}
WEBGPU_REGISTER_OP(test.dup.default, dup_handler_a, None);

int main() {
  std::puts("duplicate registration was not detected");
  return 0;
}
