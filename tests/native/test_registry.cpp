// The operator registry: no device needed.
#include <algorithm>

#include "throws.h"
#include "webgpu_delegate/graph.h"

using webgpu_delegate::Error;
using webgpu_delegate::OpAliasing;
using webgpu_delegate::OperatorRegistry;
using webgpu_delegate::ValueRef;
using webgpu_delegate::WebGPUGraph;

static void handler_one(WebGPUGraph&, const std::vector<ValueRef>&) {}
static void handler_two(WebGPUGraph&, const std::vector<ValueRef>&) {}

TEST(Registry, duplicate_registration_names_the_target_and_both_registrants) {
  OperatorRegistry registry;
  registry.register_op("aten.relu.default", handler_one, "add_relu", OpAliasing::None);
  ASSERT_THROWS_WITH(
      Error,
      registry.register_op("aten.relu.default", handler_two, "add_relu_fast", OpAliasing::None),
      "aten.relu.default", "add_relu", "add_relu_fast",
      "WebGPU registry: aten.relu.default is registered twice, by add_relu and by add_relu_fast");
  // The first registration stays in force.
  ASSERT_TRUE(registry.get_op("aten.relu.default") == &handler_one);
}

TEST(Registry, unknown_target_names_it) {
  OperatorRegistry registry;
  registry.register_op("aten.relu.default", handler_one, "add_relu", OpAliasing::None);
  ASSERT_TRUE(!registry.has_op("aten.gelu.default"));
  ASSERT_THROWS_WITH(Error, registry.get_op("aten.gelu.default"),
                     "no op registered for target 'aten.gelu.default'");
}

TEST(Registry, bad_registrations_are_rejected) {
  OperatorRegistry registry;
  ASSERT_THROWS_WITH(Error, registry.register_op("", handler_one, "add_x", OpAliasing::None),
                     "add_x registers an empty target");
  ASSERT_THROWS_WITH(Error,
                     registry.register_op("aten.x.default", nullptr, "add_x", OpAliasing::None),
                     "add_x registers a null handler for aten.x.default");
}

TEST(Registry, aliasing_is_kept_per_target) {
  OperatorRegistry registry;
  registry.register_op("aten.view_copy.default", handler_one, "add_view_copy",
                       OpAliasing::OutputMayShareInput);
  registry.register_op("llama.update_cache.default", handler_two, "add_update_cache",
                       OpAliasing::WritesInputs, {1});
  ASSERT_TRUE(registry.aliasing("aten.view_copy.default") == OpAliasing::OutputMayShareInput);
  ASSERT_TRUE(registry.aliasing("llama.update_cache.default") == OpAliasing::WritesInputs);
  ASSERT_THROWS_WITH(Error, registry.aliasing("aten.gelu.default"),
                     "no op registered for target 'aten.gelu.default'");
}

TEST(Registry, generated_registrations_declare_their_aliasing) {
  // The generator derives it from the spec: a view is one flat copy of its input, the KV
  // cache update writes its cache argument in place, an add does neither.
  const OperatorRegistry& registry = OperatorRegistry::instance();
  ASSERT_TRUE(registry.aliasing("aten.view_copy.default") == OpAliasing::OutputMayShareInput);
  ASSERT_TRUE(registry.aliasing("aten.squeeze_copy.dims") == OpAliasing::OutputMayShareInput);
  ASSERT_TRUE(registry.aliasing("aten._to_copy.default") == OpAliasing::None);
  ASSERT_TRUE(registry.aliasing("llama.update_cache.default") == OpAliasing::WritesInputs);
  ASSERT_TRUE(registry.written_args("llama.update_cache.default") == std::vector<size_t>{1});
  // sdpa_with_kv_cache(query, key, value, key_cache, value_cache, ...) writes the caches
  ASSERT_TRUE(registry.written_args("llama.sdpa_with_kv_cache.default") ==
              (std::vector<size_t>{3, 4}));
  ASSERT_TRUE(registry.aliasing("aten.add.Tensor") == OpAliasing::None);
}

TEST(Registry, targets_are_sorted) {
  OperatorRegistry registry;
  registry.register_op("b.op.default", handler_one, "b", OpAliasing::None);
  registry.register_op("a.op.default", handler_two, "a", OpAliasing::None);
  ASSERT_TRUE(registry.targets() == (std::vector<std::string>{"a.op.default", "b.op.default"}));
}

TEST(Registry, static_registrations_reach_the_global_registry) {
  // tests/native/fixtures/test_ops.cpp registers these with WEBGPU_REGISTER_OP;
  // they survive linking because the delegate is an OBJECT library.
  const auto targets = OperatorRegistry::instance().targets();
  for (const char* t : {"test.scale.default", "test.scale_bias.default",
                        "test.add_optional.default", "test.copy.default"}) {
    ASSERT_TRUE(std::find(targets.begin(), targets.end(), t) != targets.end());
  }
}

TEST(Registry, an_op_writing_in_place_names_the_arguments_it_writes) {
  OperatorRegistry registry;
  registry.register_op("llama.update_cache.default", handler_one, "add_update_cache",
                       OpAliasing::WritesInputs, {1});
  ASSERT_TRUE(registry.written_args("llama.update_cache.default") == std::vector<size_t>{1});
  ASSERT_THROWS_WITH(Error,
                     registry.register_op("et_vk.adamw_step.default", handler_one, "add_adamw",
                                          OpAliasing::WritesInputs),
                     "add_adamw registers et_vk.adamw_step.default as writing its arguments in "
                     "place, but names none");
  ASSERT_THROWS_WITH(
      Error,
      registry.register_op("aten.relu.default", handler_one, "add_relu", OpAliasing::None, {0}),
      "with arguments written in place, but not as WritesInputs");
}
