// The operator registry: no device needed.
#include <algorithm>

#include "check.h"
#include "webgpu_delegate/graph.h"

using webgpu_delegate::Error;
using webgpu_delegate::OpAliasing;
using webgpu_delegate::OperatorRegistry;
using webgpu_delegate::ValueRef;
using webgpu_delegate::WebGPUGraph;

static void handler_one(WebGPUGraph&, const std::vector<ValueRef>&) {}
static void handler_two(WebGPUGraph&, const std::vector<ValueRef>&) {}

TEST(duplicate_registration_names_the_target_and_both_registrants) {
  OperatorRegistry registry;
  registry.register_op("aten.relu.default", handler_one, "add_relu", OpAliasing::None);
  CHECK_THROWS(
      Error, registry.register_op("aten.relu.default", handler_two, "add_relu_fast", OpAliasing::None),
      "aten.relu.default", "add_relu", "add_relu_fast",
      "WebGPU registry: aten.relu.default is registered twice, by add_relu and by add_relu_fast");
  // The first registration stays in force.
  CHECK(registry.get_op("aten.relu.default") == &handler_one);
}

TEST(unknown_target_names_it) {
  OperatorRegistry registry;
  registry.register_op("aten.relu.default", handler_one, "add_relu", OpAliasing::None);
  CHECK(!registry.has_op("aten.gelu.default"));
  CHECK_THROWS(Error, registry.get_op("aten.gelu.default"),
               "no op registered for target 'aten.gelu.default'");
}

TEST(bad_registrations_are_rejected) {
  OperatorRegistry registry;
  CHECK_THROWS(Error, registry.register_op("", handler_one, "add_x", OpAliasing::None),
               "add_x registers an empty target");
  CHECK_THROWS(Error, registry.register_op("aten.x.default", nullptr, "add_x", OpAliasing::None),
               "add_x registers a null handler for aten.x.default");
}

TEST(aliasing_is_kept_per_target) {
  OperatorRegistry registry;
  registry.register_op("aten.view_copy.default", handler_one, "add_view_copy",
                       OpAliasing::OutputMayShareInput);
  registry.register_op("llama.update_cache.default", handler_two, "add_update_cache",
                       OpAliasing::WritesInputs);
  CHECK(registry.aliasing("aten.view_copy.default") == OpAliasing::OutputMayShareInput);
  CHECK(registry.aliasing("llama.update_cache.default") == OpAliasing::WritesInputs);
  CHECK_THROWS(Error, registry.aliasing("aten.gelu.default"),
               "no op registered for target 'aten.gelu.default'");
}

TEST(generated_registrations_declare_their_aliasing) {
  // The generator derives it from the spec: a view is one flat copy of its input, the KV
  // cache update writes its cache argument in place, an add does neither.
  const OperatorRegistry& registry = OperatorRegistry::instance();
  CHECK(registry.aliasing("aten.view_copy.default") == OpAliasing::OutputMayShareInput);
  CHECK(registry.aliasing("aten.squeeze_copy.dims") == OpAliasing::OutputMayShareInput);
  CHECK(registry.aliasing("aten._to_copy.default") == OpAliasing::None);
  CHECK(registry.aliasing("llama.update_cache.default") == OpAliasing::WritesInputs);
  CHECK(registry.aliasing("aten.add.Tensor") == OpAliasing::None);
}

TEST(targets_are_sorted) {
  OperatorRegistry registry;
  registry.register_op("b.op.default", handler_one, "b", OpAliasing::None);
  registry.register_op("a.op.default", handler_two, "a", OpAliasing::None);
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
