// @generated from codegen/specs/linear_qcsnw/linear_qcsnw.py - DO NOT EDIT.
// Op linear_qcs4w: et_vk.linear_qcs4w.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/linear_qcsnw/linear_qcs4w_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_qcs4w";

struct LinearQcs4wParams {
  uint32_t N;
  uint32_t K;
  uint32_t K_packed;
  uint32_t num_elements;
};
static_assert(offsetof(LinearQcs4wParams, N) == 0, "LinearQcs4wParams.N must sit at WGSL offset 0");
static_assert(offsetof(LinearQcs4wParams, K) == 4, "LinearQcs4wParams.K must sit at WGSL offset 4");
static_assert(offsetof(LinearQcs4wParams, K_packed) == 8,
              "LinearQcs4wParams.K_packed must sit at WGSL offset 8");
static_assert(offsetof(LinearQcs4wParams, num_elements) == 12,
              "LinearQcs4wParams.num_elements must sit at WGSL offset 12");
static_assert(sizeof(LinearQcs4wParams) == 16,
              "LinearQcs4wParams must match the WGSL struct size 16");

const KernelSource kLinearQcs4wKernel{
    "linear_qcs4w",
    kLinearQcs4wWGSL,
    "main",
    {kLinearQcs4wWorkgroupSizeX, kLinearQcs4wWorkgroupSizeY, kLinearQcs4wWorkgroupSizeZ},
    kLinearQcs4wBindings,
    kLinearQcs4wBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct LinearQcs4wPlan {
  LinearQcs4wParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LinearQcs4wPlan plan_linear_qcs4w(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  const Tensor& scales = graph.get_tensor(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "weight", weight, {DType::UInt8});
  utils::check_rank(kOp, "weight", weight, 2, 2);
  utils::check_dtype(kOp, "scales", scales, {DType::Float32});
  utils::check_rank(kOp, "scales", scales, 1, 1);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 1, 8);
  const int64_t K = utils::let(kOp, "K = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t N =
      utils::let(kOp, "N = weight.dims[0]", [&]() -> int64_t { return weight.dim(0); });
  const int64_t M = utils::let(kOp, "M = self.numel // K if K > 0 else 0", [&]() -> int64_t {
    return (K > 0) ? utils::floordiv(self.numel(), K) : 0;
  });
  if (weight.dim(1) != utils::floordiv(utils::add(K, 1), 2)) {
    utils::fail(kOp, "weight", "does not hold two 4-bit values per byte over self's last dim",
                utils::format_value(weight.dims()),
                "[N, " + utils::format_value(utils::floordiv(utils::add(K, 1), 2)) +
                    "] for K = " + utils::format_value(K));
  }
  if (scales.dim(0) < N) {
    utils::fail(kOp, "scales", "has fewer entries than weight has rows",
                utils::format_value(scales.dims()), "at least " + utils::format_value(N));
  }
  utils::check_output_dims(
      kOp, "out", out, utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{N}));

  LinearQcs4wPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.K_packed = utils::to_u32(utils::floordiv(utils::add(K, 1), 2), kOp, "K_packed");
  plan.params0.num_elements = utils::to_u32(utils::mul(M, N), kOp, "num_elements");
  plan.grid0 = utils::elementwise_grid(utils::mul(M, N), kLinearQcs4wKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_qcs4w_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t N =
      utils::let(kOp, "N = weight.dims[0]", [&]() -> int64_t { return weight.dim(0); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{N}));
}

void add_linear_qcs4w(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearQcs4wPlan built = plan_linear_qcs4w(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kLinearQcs4wKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                          Binding::of(args[2]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_linear_qcs4w_outputs(graph, args);
    const LinearQcs4wPlan plan = plan_linear_qcs4w(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.linear_qcs4w.default, webgpu_delegate::add_linear_qcs4w, None);
