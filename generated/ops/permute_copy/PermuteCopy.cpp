// @generated from codegen/specs/permute_copy/permute_copy.py - DO NOT EDIT.
// Op permute_copy: aten.permute_copy.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/permute_copy/permute_copy_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "permute_copy";

struct PermuteCopyParams {
  uint32_t out_dims[4];
  uint32_t in_strides[4];
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(PermuteCopyParams, out_dims) == 0,
              "PermuteCopyParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(PermuteCopyParams, in_strides) == 16,
              "PermuteCopyParams.in_strides must sit at WGSL offset 16");
static_assert(offsetof(PermuteCopyParams, num_elements) == 32,
              "PermuteCopyParams.num_elements must sit at WGSL offset 32");
static_assert(sizeof(PermuteCopyParams) == 48,
              "PermuteCopyParams must match the WGSL struct size 48");

const KernelSource kPermuteCopyKernel{
    "permute_copy",
    kPermuteCopyWGSL,
    "main",
    {kPermuteCopyWorkgroupSizeX, kPermuteCopyWorkgroupSizeY, kPermuteCopyWorkgroupSizeZ}};

// The argument values, checked and turned into what each dispatch needs.
struct PermuteCopyPlan {
  PermuteCopyParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

PermuteCopyPlan plan_permute_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dims = graph.get_int_list(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_rank(kOp, "self", self, 1, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 1, 4);
  if (!(utils::is_permutation(dims, self.rank()))) {
    utils::fail(
        kOp, "dims", "is not a permutation of the input's dims", utils::format_value(dims),
        "each of 0.." + utils::format_value(utils::sub(self.rank(), 1)) + " once (negatives wrap)");
  }
  utils::check_output_dims(kOp, "out", out, utils::permute(self.dims(), dims));

  PermuteCopyPlan plan;
  utils::pack(plan.params0.out_dims, utils::right_align(out.dims(), 4, 1), kOp, "out_dims");
  utils::pack(
      plan.params0.in_strides,
      utils::right_align(utils::permute(utils::contiguous_strides(self.dims()), dims), 4, 0), kOp,
      "in_strides");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.grid0 = utils::elementwise_grid(out.numel(), kPermuteCopyKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_permute_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dims = graph.get_int_list(args[1]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, utils::permute(self.dims(), dims));
}

void add_permute_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const PermuteCopyPlan built = plan_permute_copy(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kPermuteCopyKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_permute_copy_outputs(graph, args);
    const PermuteCopyPlan plan = plan_permute_copy(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.permute_copy.default, webgpu_delegate::add_permute_copy);
