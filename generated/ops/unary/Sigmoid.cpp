// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op sigmoid: aten.sigmoid.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/sigmoid_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sigmoid";

struct SigmoidParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(SigmoidParams, num_vec4) == 0,
              "SigmoidParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(SigmoidParams) == 16, "SigmoidParams must match the WGSL struct size 16");

const KernelSource kSigmoidKernel{
    "sigmoid",        kSigmoidWGSL,
    "main",           {kSigmoidWorkgroupSizeX, kSigmoidWorkgroupSizeY, kSigmoidWorkgroupSizeZ},
    kSigmoidBindings, kSigmoidBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct SigmoidPlan {
  SigmoidParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SigmoidPlan plan_sigmoid(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_output_dims(kOp, "out", out, self.dims());

  SigmoidPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kSigmoidKernel.workgroup_size[0] * 4,
                              graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sigmoid_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_sigmoid(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SigmoidPlan built = plan_sigmoid(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kSigmoidKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_sigmoid_outputs(graph, args);
    const SigmoidPlan plan = plan_sigmoid(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sigmoid.default, webgpu_delegate::add_sigmoid, None);
