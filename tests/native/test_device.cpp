// Graphs executed on the device (lavapipe on CPU-only machines): results,
// resizes, the pipeline cache, dummy bindings, copies and error reporting.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "device_fixture.h"
#include "fixtures/test_kernels.h"
#include "graph_io.h"
#include "throws.h"
#include "webgpu_delegate/device.h"
#include "webgpu_delegate/graph.h"

using namespace webgpu_delegate;

namespace {

int mismatches(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return -1;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += std::fabs(got[i] - want[i]) > 1e-5f;
  return bad;
}

}  // namespace

TEST(Device, device_reports_its_adapter_and_limits) {
  Device& d = test_device();
  std::cout << "  device: " << d.describe() << ", max invocations "
            << d.limits().max_invocations_per_workgroup << ", max workgroups/dim "
            << d.limits().max_workgroups_per_dimension << "\n";
  ASSERT_TRUE(!d.adapter_description().device.empty());
  ASSERT_TRUE(d.limits().max_workgroups_per_dimension >= 65535u);
  ASSERT_TRUE(d.limits().max_invocations_per_workgroup >= 64u);
  ASSERT_TRUE(d.limits().max_storage_buffer_binding_size > 0u);
  ASSERT_THROWS_WITH(Error, parse_backend_type("Vulcan"), "unknown backend type 'Vulcan'",
                     "Vulkan, OpenGL");
}

TEST(Device, scale_kernel_runs_and_resizes) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4, 100});
  const ValueRef alpha = g.add_double(2.5);
  const ValueRef out = g.add_tensor(DType::Float32, {4, 100});
  g.add_node("test.scale.default", {x, alpha, out});
  ASSERT_EQ(g.num_nodes(), 1u);
  ASSERT_EQ(g.num_dispatches(), 1u);

  const auto xs = iota(400, -100.0f, 0.5f);
  write(g, x, xs);
  g.execute();
  std::vector<float> want(400);
  for (size_t i = 0; i < 400; ++i) want[i] = xs[i] * 2.5f;
  ASSERT_EQ(mismatches(read(g, out), want), 0);

  // Resize to fewer rows: the hook resizes `out` and rewrites the dispatch.
  g.resize_input(x, {1, 100});
  ASSERT_TRUE(g.get_tensor(out).dims() == (std::vector<int64_t>{1, 100}));
  const auto small = iota(100, 7.0f, -1.0f);
  write(g, x, small);
  g.execute();
  std::vector<float> want_small(100);
  for (size_t i = 0; i < 100; ++i) want_small[i] = small[i] * 2.5f;
  ASSERT_EQ(mismatches(read(g, out), want_small), 0);

  // Elements past the live size were not touched by the resized dispatch.
  g.resize_input(x, {4, 100});
  const auto full = read(g, out);
  ASSERT_EQ(full[100], want[100]);
  ASSERT_THROWS_WITH(
      Error, g.copy_in(x, small.data(), small.size() * sizeof(float)),
      "copy_in of value 0 has the wrong byte count (got 400, expected 1600 for float32[4, 100])");
}

TEST(Device, a_kernel_used_50_times_compiles_one_shader_module) {
  Device device;  // a fresh device, so its cache starts empty
  WebGPUGraph g(device);
  ValueRef cur = g.add_tensor(DType::Float32, {256});
  const ValueRef input = cur;
  const ValueRef alpha = g.add_double(1.01);
  for (int i = 0; i < 50; ++i) {
    const ValueRef next = g.add_tensor(DType::Float32, {256});
    g.add_node("test.scale.default", {cur, alpha, next});
    cur = next;
  }
  ASSERT_EQ(g.num_nodes(), 50u);
  ASSERT_EQ(g.num_dispatches(), 50u);
  ASSERT_EQ(g.num_shader_modules(), 1u);
  ASSERT_EQ(g.num_pipelines(), 1u);
  ASSERT_EQ(device.pipelines_created(), 1u);
  ASSERT_EQ(device.shader_modules_created(), 1u);

  write(g, input, std::vector<float>(256, 1.0f));
  g.execute();
  const float want = std::pow(1.01f, 50.0f);
  const auto got = read(g, cur);
  ASSERT_TRUE(std::fabs(got[0] - want) < 1e-4f);
  ASSERT_TRUE(std::fabs(got[255] - want) < 1e-4f);

  // Override constants key the pipeline, not the module.
  const ValueRef b1 = g.add_double(1.0), b2 = g.add_double(2.0);
  const ValueRef o1 = g.add_tensor(DType::Float32, {256}), o2 = g.add_tensor(DType::Float32, {256}),
                 o3 = g.add_tensor(DType::Float32, {256});
  g.add_node("test.scale_bias.default", {input, alpha, b1, o1});
  g.add_node("test.scale_bias.default", {input, alpha, b2, o2});
  g.add_node("test.scale_bias.default", {input, alpha, b1, o3});
  ASSERT_EQ(device.shader_modules_created(), 1u);
  ASSERT_EQ(device.pipelines_created(), 3u);  // no overrides, bias=1, bias=2
  g.execute();
  ASSERT_TRUE(std::fabs(read(g, o1)[3] - (1.01f + 1.0f)) < 1e-5f);
  ASSERT_TRUE(std::fabs(read(g, o2)[3] - (1.01f + 2.0f)) < 1e-5f);
  ASSERT_TRUE(std::fabs(read(g, o3)[3] - (1.01f + 1.0f)) < 1e-5f);

  // A second graph on the same device reuses the cache.
  WebGPUGraph g2(device);
  const ValueRef a = g2.add_tensor(DType::Float32, {8}), s = g2.add_double(3.0),
                 o = g2.add_tensor(DType::Float32, {8});
  g2.add_node("test.scale.default", {a, s, o});
  ASSERT_EQ(device.pipelines_created(), 3u);
}

TEST(Device, optional_tensor_binds_a_dummy_when_absent) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {10});
  const ValueRef other = g.add_tensor(DType::Float32, {10});
  const ValueRef none = g.add_null();
  const ValueRef with = g.add_tensor(DType::Float32, {10});
  const ValueRef without = g.add_tensor(DType::Float32, {10});
  g.add_node("test.add_optional.default", {x, other, with});
  g.add_node("test.add_optional.default", {x, none, without});
  write(g, x, iota(10));
  write(g, other, iota(10, 100.0f));
  g.execute();
  std::vector<float> sum(10);
  for (size_t i = 0; i < 10; ++i) sum[i] = 100.0f + 2.0f * static_cast<float>(i);
  ASSERT_EQ(mismatches(read(g, with), sum), 0);
  ASSERT_EQ(mismatches(read(g, without), iota(10)), 0);
}

TEST(Device, copies_run_in_order_with_dispatches) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {6});
  const ValueRef two = g.add_double(2.0);
  const ValueRef y = g.add_tensor(DType::Float32, {6});
  const ValueRef z = g.add_tensor(DType::Float32, {6});
  const ValueRef w = g.add_tensor(DType::Float32, {6});
  g.add_node("test.scale.default", {x, two, y});  // y = 2x
  g.add_node("test.copy.default", {y, z});        // z = y
  g.add_node("test.scale.default", {z, two, w});  // w = 4x
  ASSERT_EQ(g.num_copies(), 1u);
  write(g, x, iota(6, 1.0f));
  g.execute();
  ASSERT_EQ(mismatches(read(g, w), iota(6, 4.0f, 4.0f)), 0);
  ASSERT_EQ(g.last_execute_stats().dispatches, 2u);
  ASSERT_EQ(g.last_execute_stats().copies, 1u);
  g.resize_input(x, {3});
  write(g, x, {10.0f, 20.0f, 30.0f});
  g.execute();
  ASSERT_EQ(mismatches(read(g, w), {40.0f, 80.0f, 120.0f}), 0);
  ASSERT_THROWS_WITH(Error, g.add_copy(x, x, 4), "share one buffer");
  ASSERT_THROWS_WITH(Error, g.add_copy(x, y, 36), "copy of 36 bytes from value 0 (32-byte buffer)");
  ASSERT_THROWS_WITH(Error, g.update_copy(0, 4), "update_copy of command 0, which is a dispatch");
  ASSERT_THROWS_WITH(Error, g.update_dispatch(99, nullptr, 0, {}),
                     "command 99, which does not exist");
}

TEST(Device, dispatches_submitted_in_pieces_run_in_order) {
  // w = 8x through a chain of three dispatches and a copy, submitted every dispatch or
  // copy, in pieces of 1, 1, 2 (n = 2), and at once: the same result, the submits counted
  for (size_t per_submit : {1u, 2u, 0u}) {
    WebGPUGraph g(test_device());
    const ValueRef x = g.add_tensor(DType::Float32, {6});
    const ValueRef two = g.add_double(2.0);
    const ValueRef y = g.add_tensor(DType::Float32, {6});
    const ValueRef z = g.add_tensor(DType::Float32, {6});
    const ValueRef v = g.add_tensor(DType::Float32, {6});
    const ValueRef w = g.add_tensor(DType::Float32, {6});
    g.add_node("test.scale.default", {x, two, y});  // y = 2x
    g.add_node("test.copy.default", {y, z});        // z = y
    g.add_node("test.scale.default", {z, two, v});  // v = 4x
    g.add_node("test.scale.default", {v, two, w});  // w = 8x
    g.set_dispatches_per_submit(per_submit);
    write(g, x, iota(6, 1.0f));
    g.execute();
    ASSERT_EQ(mismatches(read(g, w), iota(6, 8.0f, 8.0f)), 0);
    // 2: chunks of 1 (2 / 4, at least 1), 1 (2 / 2), then 2
    const size_t expected = per_submit == 1 ? 4u : per_submit == 2 ? 3u : 1u;
    ASSERT_EQ(g.last_execute_stats().submits, expected);
  }
}

TEST(Device, elementwise_grid_spill_decodes_on_the_device) {
  // A tiny per-dimension limit forces the 1-D -> 2-D spill that large tensors
  // get at 65535; the kernel rebuilds the index from num_workgroups.
  WebGPUGraph g(test_device());
  const int64_t n = 1000;
  const ValueRef x = g.add_tensor(DType::Float32, {n});
  const ValueRef out = g.add_tensor(DType::Float32, {n});
  const utils::Grid grid = utils::elementwise_grid(n, 64, 4);
  ASSERT_EQ(grid.x, 4u);
  ASSERT_EQ(grid.y, 4u);
  test_ops::TestScaleParams p{static_cast<uint32_t>(n), 3.0f, 0, 0};
  g.add_dispatch(test_ops::test_scale_kernel(), {},
                 {Binding::of(x), Binding::of(out), Binding::params()}, &p, sizeof p, grid);
  const auto xs = iota(static_cast<size_t>(n));
  write(g, x, xs);
  g.execute();
  const auto got = read(g, out);
  ASSERT_EQ(got[999], 2997.0f);
  ASSERT_EQ(mismatches(got, iota(static_cast<size_t>(n), 0.0f, 3.0f)), 0);
}

// One read_write storage binding: the table of the hand-written kernels below.
constexpr KernelBinding kOneStorage[] = {{"x", KernelBinding::Kind::Storage, 16, true}};

TEST(Device, shader_compile_errors_carry_naga_message_and_kernel_name) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4});
  const KernelSource bad{"broken_kernel",
                         "@group(0) @binding(0) var<storage, read_write> x: array<f32>;\n"
                         "@compute @workgroup_size(1)\n"
                         "fn main() { x[0] = undefined_name; }\n",
                         "main",
                         {1, 1, 1},
                         kOneStorage,
                         1};
  ASSERT_THROWS_WITH(Error, g.add_dispatch(bad, {}, {Binding::of(x)}, nullptr, 0, {}),
                     "WebGPU kernel broken_kernel: shader module creation failed",
                     "undefined_name");
  try {
    g.add_dispatch(bad, {}, {Binding::of(x)}, nullptr, 0, {});
  } catch (const Error& e) {
    std::cout << "  the error reads:\n" << e.what() << "\n";
  }
  const KernelSource syntax{
      "syntax_kernel", "fn main( { let x = ; }", "main", {1, 1, 1}, kOneStorage, 1};
  ASSERT_THROWS_WITH(Error, g.add_dispatch(syntax, {}, {Binding::of(x)}, nullptr, 0, {}),
                     "syntax_kernel", "expected");
  // The device is still usable afterwards.
  ASSERT_EQ(g.num_dispatches(), 0u);
  test_device().check_errors("after a shader error");
}

// A subgroup kernel in standard WGSL (with `enable subgroups;`, which naga rejects
// and the runtime comments out for it) runs where the device has subgroups; on a
// device created without them, add_dispatch refuses it by name.
TEST(Device, a_feature_kernel_runs_with_its_feature_and_is_refused_without_it) {
  const KernelSource sums{"subgroup_sums",
                          "enable subgroups;\n"
                          "@group(0) @binding(0) var<storage, read_write> x: array<f32>;\n"
                          "@compute @workgroup_size(64)\n"
                          "fn main(@builtin(local_invocation_index) i: u32) {\n"
                          "  x[i] = subgroupAdd(1.0);\n"
                          "}\n",
                          "main",
                          {64, 1, 1},
                          kOneStorage,
                          1,
                          "subgroups"};
  Device& full = test_device();
  ASSERT_TRUE(full.has_feature(Feature::Subgroups));  // lavapipe offers them
  WebGPUGraph g(full);
  const ValueRef x = g.add_tensor(DType::Float32, {64});
  ASSERT_TRUE(g.has_feature(Feature::Subgroups));
  g.add_dispatch(sums, {}, {Binding::of(x)}, nullptr, 0, {1, 1, 1});
  g.execute();
  const std::vector<float> got = read(g, x);
  ASSERT_TRUE(got[0] >= 4.0f && got[0] <= 64.0f);  // the subgroup size (4..128, at most 64 lanes)
  ASSERT_EQ(got[63], got[0]);

  DeviceOptions options;
  options.masked_features = {"subgroups"};
  Device masked(options);
  ASSERT_TRUE(!masked.has_feature(Feature::Subgroups));
  WebGPUGraph h(masked);
  const ValueRef y = h.add_tensor(DType::Float32, {64});
  ASSERT_THROWS_WITH(Error, h.add_dispatch(sums, {}, {Binding::of(y)}, nullptr, 0, {1, 1, 1}),
                     "WebGPU kernel subgroup_sums: needs the device feature subgroups, which this "
                     "device lacks");
  options.masked_features = {"subgroup"};
  ASSERT_THROWS_WITH(Error, Device{options}, "cannot mask unknown feature 'subgroup'");
}

TEST(Device, binding_mismatches_are_reported_before_the_gpu_sees_them) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4});
  const ValueRef y = g.add_tensor(DType::Float32, {4});
  test_ops::TestScaleParams p{4, 1.0f, 0, 0};
  const KernelSource k = test_ops::test_scale_kernel();
  ASSERT_THROWS_WITH(
      Error, g.add_dispatch(k, {}, {Binding::of(x), Binding::params()}, &p, sizeof p, {}),
      "WebGPU kernel test_scale: the handler passes 2 bindings, the kernel declares 3",
      "0: x var<storage, read>, 1: out var<storage, read_write>, 2: params var<uniform>");
  ASSERT_THROWS_WITH(
      Error,
      g.add_dispatch(k, {}, {Binding::of(x), Binding::params(), Binding::of(y)}, &p, sizeof p, {}),
      "binding 1 (out, var<storage, read_write>) is bound to the params uniform");
  ASSERT_THROWS_WITH(
      Error,
      g.add_dispatch(k, {}, {Binding::of(x), Binding::of(x), Binding::params()}, &p, sizeof p, {}),
      "binding 1 (out, var<storage, read_write>) and binding 0 share one buffer (value 0)");
  ASSERT_THROWS_WITH(
      Error,
      g.add_dispatch(k, {}, {Binding::of(x), Binding::of(y), Binding::params()}, nullptr, 0, {}),
      "a params binding without params bytes");
  ASSERT_THROWS_WITH(Error,
                     g.add_dispatch(k, {}, {Binding::of(x), Binding::of(y), Binding::params()}, &p,
                                    sizeof p, utils::Grid{70000, 1, 1}),
                     "dispatch grid 70000x1x1 exceeds maxComputeWorkgroupsPerDimension");
  const DispatchId id =
      g.add_dispatch(k, {}, {Binding::of(x), Binding::of(y), Binding::params()}, &p, sizeof p, {});
  ASSERT_THROWS_WITH(Error, g.update_dispatch(id, &p, 8, {}),
                     "update_dispatch with 8 params bytes, the dispatch was recorded with 16");
  const KernelSource no_table{"no_table", k.wgsl, "main", {64, 1, 1}, nullptr, 0};
  ASSERT_THROWS_WITH(Error, g.add_dispatch(no_table, {}, {}, nullptr, 0, {}),
                     "WebGPU kernel no_table: KernelSource needs its binding table");
  const KernelSource bad_entry{"bad_entry", k.wgsl,     "not_main",
                               {64, 1, 1},  k.bindings, k.binding_count};
  ASSERT_THROWS_WITH(
      Error,
      g.add_dispatch(bad_entry, {}, {Binding::of(x), Binding::of(y), Binding::params()}, &p,
                     sizeof p, {}),
      "WebGPU kernel bad_entry: compute pipeline creation (entry point not_main) failed");
  const KernelSource renamed{"test_scale", test_ops::kTestAddOptionalWGSL,
                             "main",       {64, 1, 1},
                             k.bindings,   k.binding_count};
  ASSERT_THROWS_WITH(Error, g.add_dispatch(renamed, {}, {}, nullptr, 0, {}),
                     "WebGPU kernel test_scale: two different WGSL sources use this kernel name");
}

TEST(Device, uncaptured_errors_surface_at_the_next_sync_point) {
  Device device;  // its own device: the error must not leak into other tests
  WebGPUGraph g(device);
  // An invalid buffer made behind the runtime's back: MapRead only combines with CopyDst.
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.size = 16;
  desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage;
  Handle<WGPUBuffer> invalid{wgpuDeviceCreateBuffer(device.handle(), &desc)};
  ASSERT_THROWS_WITH(
      Error, g.execute(),
      "WebGPU execute (errors pending from earlier calls): uncaptured validation error");
  invalid.reset();
  device.check_errors("the next call");  // reported once, then cleared
  g.execute();
}

TEST(Device, a_lower_storage_binding_limit_is_enforced) {
  DeviceOptions options;
  options.max_storage_buffer_binding_size = 64;
  Device capped(options);
  ASSERT_EQ(capped.limits().max_storage_buffer_binding_size, 64u);
  WebGPUGraph g(capped);
  const ValueRef x = g.add_tensor(DType::Float32, {32});  // 128 bytes
  const ValueRef alpha = g.add_double(2.0);
  const ValueRef out = g.add_tensor(DType::Float32, {32});
  ASSERT_THROWS_WITH(Error, g.add_node("test.scale.default", {x, alpha, out}),
                     "tensor value 0 (float32[32]) is too large for one storage binding",
                     "(got 128 bytes, expected at most maxStorageBufferBindingSize 64)");
  options.max_storage_buffer_binding_size = 0;  // the environment's, checked
  ASSERT_EQ(setenv("WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE", "64k", 1), 0);
  ASSERT_THROWS_WITH(Error, Device{options},
                     "WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE is not a positive byte count (got "
                     "\"64k\")");
  ASSERT_EQ(unsetenv("WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE"), 0);
}

TEST(Device, a_binding_above_the_device_limit_fails_at_build_naming_op_and_tensor) {
  WebGPUGraph g(test_device());
  const uint64_t limit = g.limits().max_storage_buffer_binding_size;
  if (limit + 4 > g.limits().max_buffer_size) {
    GTEST_SKIP() << "maxBufferSize does not exceed maxStorageBufferBindingSize";
  }
  // One float more than a storage binding may hold; nothing is written to it.
  const int64_t n = static_cast<int64_t>(limit / 4) + 1;
  const ValueRef x = g.add_tensor(DType::Float32, {n});
  const ValueRef alpha = g.add_double(2.0);
  const ValueRef out = g.add_tensor(DType::Float32, {n});
  ASSERT_THROWS_WITH(Error, g.add_node("test.scale.default", {x, alpha, out}),
                     "WebGPU test.scale.default: tensor value 0 (float32[" + std::to_string(n) +
                         "]) is too large for one storage binding",
                     "expected at most maxStorageBufferBindingSize " + std::to_string(limit));
  ASSERT_EQ(g.num_nodes(), 0u);
  ASSERT_EQ(g.num_dispatches(), 0u);
  // The graph stays usable, and errors outside add_node name the runtime part.
  const ValueRef small = g.add_tensor(DType::Float32, {4});
  const ValueRef small_out = g.add_tensor(DType::Float32, {4});
  g.add_node("test.scale.default", {small, alpha, small_out});
  write(g, small, {1, 2, 3, 4});
  g.execute();
  ASSERT_EQ(mismatches(read(g, small_out), {2, 4, 6, 8}), 0);
  ASSERT_THROWS_WITH(Error, g.add_tensor(DType::Float32, {1LL << 40}),
                     "WebGPU graph: tensor value");
}

TEST(Device, a_destroyed_device_becomes_an_exception_not_a_crash) {
  Device device;  // its own device: this one is destroyed
  WebGPUGraph g(device);
  const ValueRef x = g.add_tensor(DType::Float32, {8});
  const ValueRef alpha = g.add_double(2.0);
  const ValueRef out = g.add_tensor(DType::Float32, {8});
  g.add_node("test.scale.default", {x, alpha, out});
  write(g, x, iota(8));
  g.execute();
  wgpuDeviceDestroy(device.handle());
  // Every later sync point throws (no hang; a submit to the lost queue would abort).
  ASSERT_THROWS_WITH(Error, (write(g, x, iota(8)), g.execute(), read(g, out)),
                     "WebGPU device lost during copy_in of value 0");
  ASSERT_THROWS_WITH(Error, g.execute(), "WebGPU device lost during execute");
  std::vector<float> host(8);
  ASSERT_THROWS_WITH(Error, g.copy_out(out, host.data(), host.size() * sizeof(float)),
                     "device is lost");
}
