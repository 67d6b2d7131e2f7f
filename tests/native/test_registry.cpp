// The operator registry: no device needed.
#include <algorithm>

#include "check.h"
#include "webgpu_delegate/graph.h"

using webgpu_delegate::Error;
using webgpu_delegate::OperatorRegistry;
using webgpu_delegate::ValueRef;
using webgpu_delegate::WebGPUGraph;

static void handler_one(WebGPUGraph&, const std::vector<ValueRef>&) {}
static void handler_two(WebGPUGraph&, const std::vector<ValueRef>&) {}

TEST(duplicate_registration_names_the_target_and_both_registrants) {
  OperatorRegistry registry;
  registry.register_op("aten.relu.default", handler_one, "add_relu");
  CHECK_THROWS(
      Error, registry.register_op("aten.relu.default", handler_two, "add_relu_fast"),
      "aten.relu.default", "add_relu", "add_relu_fast",
      "WebGPU registry: aten.relu.default is registered twice, by add_relu and by add_relu_fast");
  // The first registration stays in force.
  CHECK(registry.get_op("aten.relu.default") == &handler_one);
}

TEST(unknown_target_names_it) {
  OperatorRegistry registry;
  registry.register_op("aten.relu.default", handler_one, "add_relu");
  CHECK(!registry.has_op("aten.gelu.default"));
  CHECK_THROWS(Error, registry.get_op("aten.gelu.default"),
               "no op registered for target 'aten.gelu.default'");
}

TEST(bad_registrations_are_rejected) {
  OperatorRegistry registry;
  CHECK_THROWS(Error, registry.register_op("", handler_one, "add_x"),
               "add_x registers an empty target");
  CHECK_THROWS(Error, registry.register_op("aten.x.default", nullptr, "add_x"),
               "add_x registers a null handler for aten.x.default");
}

TEST(targets_are_sorted) {
  OperatorRegistry registry;
  registry.register_op("b.op.default", handler_one, "b");
  registry.register_op("a.op.default", handler_two, "a");
  CHECK(registry.targets() == (std::vector<std::string>{"a.op.default", "b.op.default"}));
}

TEST(static_registrations_reach_the_global_registry) {
  // tests/native/fixtures/test_ops.cpp registers these with WEBGPU_REGISTER_OP;
  // they survive linking because the delegate is an OBJECT library.
  const auto targets = OperatorRegistry::instance().targets();
  for (const char* t : {"test.scale.default", "test.scale_bias.default",
                        "test.add_optional.default", "test.copy.default"}) {
    CHECK(std::find(targets.begin(), targets.end(), t) != targets.end());
  }
}
