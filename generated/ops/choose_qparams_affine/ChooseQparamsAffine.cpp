// @generated from codegen/specs/choose_qparams_affine/choose_qparams_affine.py - DO NOT EDIT.
// Op choose_qparams_affine: torchao.choose_qparams_affine.default

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/choose_qparams_affine/choose_qparams_rows_f16_packed_wgsl.h"
#include "ops/choose_qparams_affine/choose_qparams_rows_f16_wgsl.h"
#include "ops/choose_qparams_affine/choose_qparams_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "choose_qparams_affine";

struct ChooseQparamsAffineParams {
  uint32_t K;
  uint32_t rows;
  uint32_t quads;
  float quant_min;
  float quant_max;
  float eps;
  uint32_t _pad0[2];
};
static_assert(offsetof(ChooseQparamsAffineParams, K) == 0,
              "ChooseQparamsAffineParams.K must sit at WGSL offset 0");
static_assert(offsetof(ChooseQparamsAffineParams, rows) == 4,
              "ChooseQparamsAffineParams.rows must sit at WGSL offset 4");
static_assert(offsetof(ChooseQparamsAffineParams, quads) == 8,
              "ChooseQparamsAffineParams.quads must sit at WGSL offset 8");
static_assert(offsetof(ChooseQparamsAffineParams, quant_min) == 12,
              "ChooseQparamsAffineParams.quant_min must sit at WGSL offset 12");
static_assert(offsetof(ChooseQparamsAffineParams, quant_max) == 16,
              "ChooseQparamsAffineParams.quant_max must sit at WGSL offset 16");
static_assert(offsetof(ChooseQparamsAffineParams, eps) == 20,
              "ChooseQparamsAffineParams.eps must sit at WGSL offset 20");
static_assert(sizeof(ChooseQparamsAffineParams) == 32,
              "ChooseQparamsAffineParams must match the WGSL struct size 32");

const KernelSource kChooseQparamsRowsF16Kernel{
    "choose_qparams_rows_f16",
    kChooseQparamsRowsF16WGSL,
    "main",
    {kChooseQparamsRowsF16WorkgroupSizeX, kChooseQparamsRowsF16WorkgroupSizeY,
     kChooseQparamsRowsF16WorkgroupSizeZ},
    kChooseQparamsRowsF16Bindings,
    kChooseQparamsRowsF16BindingCount,
    kChooseQparamsRowsF16Features};
const KernelSource kChooseQparamsRowsF16PackedKernel{
    "choose_qparams_rows_f16_packed",
    kChooseQparamsRowsF16PackedWGSL,
    "main",
    {kChooseQparamsRowsF16PackedWorkgroupSizeX, kChooseQparamsRowsF16PackedWorkgroupSizeY,
     kChooseQparamsRowsF16PackedWorkgroupSizeZ},
    kChooseQparamsRowsF16PackedBindings,
    kChooseQparamsRowsF16PackedBindingCount};
const KernelSource kChooseQparamsRowsKernel{
    "choose_qparams_rows",
    kChooseQparamsRowsWGSL,
    "main",
    {kChooseQparamsRowsWorkgroupSizeX, kChooseQparamsRowsWorkgroupSizeY,
     kChooseQparamsRowsWorkgroupSizeZ},
    kChooseQparamsRowsBindings,
    kChooseQparamsRowsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kChooseQparamsRowsF16Kernel, &kChooseQparamsRowsF16PackedKernel, &kChooseQparamsRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ChooseQparamsAffinePlan {
  size_t route0 = 0;
  ChooseQparamsAffineParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ChooseQparamsAffinePlan plan_choose_qparams_affine(WebGPUGraph& graph,
                                                   const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 11);
  const Tensor* input = graph.is_null(args[0]) ? nullptr : &graph.get_tensor(args[0]);
  const std::string mapping_type = graph.get_string(args[1]);
  if (mapping_type != "ASYMMETRIC") {
    utils::fail(kOp, "mapping_type", "is not supported", mapping_type, "ASYMMETRIC");
  }
  const std::vector<int64_t> block_size = utils::read_int_list(graph, args[2], kOp, "block_size");
  const double quant_min = graph.is_null(args[4]) ? -128 : graph.get_scalar(args[4]);
  const double quant_max = graph.is_null(args[5]) ? 127 : graph.get_scalar(args[5]);
  const double eps = graph.is_null(args[6])
                         ? ((input != nullptr) && (input->dtype == DType::Float16))
                               ? 6.103515625e-05
                               : 1.1754943508222875e-38
                         : utils::read_double(graph, args[6], kOp, "eps");
  const bool keepdim = graph.get_bool(args[9]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[10]);
  const Tensor& scale = graph.get_tensor(utils::at(out, 0));
  const Tensor& zero_point = graph.get_tensor(utils::at(out, 1));
  if (input != nullptr) {
    utils::check_dtype(kOp, "input", *input, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "input", *input, 1, 8);
  }
  utils::check_dtype(kOp, "scale", scale, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "zero_point", zero_point, {DType::Int8});
  const int64_t K = utils::let(kOp, "K = input.dims[-1] if input.present else 0", [&]() -> int64_t {
    return (input != nullptr) ? input->dim(-1) : 0;
  });
  const int64_t rows =
      utils::let(kOp, "rows = input.numel // max(K, 1) if input.present else 0", [&]() -> int64_t {
        return (input != nullptr) ? utils::floordiv(input->numel(), utils::max_of(K, 1)) : 0;
      });
  const std::vector<int64_t> row_shape = utils::let(
      kOp, "row_shape = input.dims[:-1] + ([1] if keepdim else []) if input.present else []",
      [&]() -> std::vector<int64_t> {
        return (input != nullptr)
                   ? utils::concat(utils::slice(input->dims(), 0, -1),
                                   keepdim ? std::vector<int64_t>{1} : std::vector<int64_t>{})
                   : std::vector<int64_t>{};
      });
  if (input == nullptr) {
    utils::fail(kOp, "input", "is missing", utils::format_value("None"), "a tensor");
  }
  if (block_size !=
      utils::concat(utils::ones(utils::sub(input->rank(), 1)), std::vector<int64_t>{K})) {
    utils::fail(kOp, "block_size", "does not make each row (token) one block",
                utils::format_value(block_size),
                utils::format_value(utils::concat(utils::ones(utils::sub(input->rank(), 1)),
                                                  std::vector<int64_t>{K})));
  }
  if (!(-128 <= quant_min) || !(quant_min < quant_max)) {
    utils::fail(kOp, "quant_min", "does not start an int8 range below quant_max",
                utils::format_value(quant_min), "-128.." + utils::format_value(quant_max - 1));
  }
  if (!(quant_max <= 127)) {
    utils::fail(kOp, "quant_max", "does not end an int8 range", utils::format_value(quant_max),
                "at most 127");
  }
  if (scale.dtype != input->dtype) {
    utils::fail(kOp, "input", "does not share its dtype with scale",
                utils::format_value(input->dtype), "the dtype of scale");
  }
  utils::check_output_dims(kOp, "scale", scale, row_shape);
  utils::check_output_dims(kOp, "zero_point", zero_point, row_shape);

  ChooseQparamsAffinePlan plan;
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.rows = utils::to_u32(rows, kOp, "rows");
  plan.params0.quads = utils::to_u32(utils::ceil_div(rows, 4), kOp, "quads");
  plan.params0.quant_min = utils::to_f32(quant_min);
  plan.params0.quant_max = utils::to_f32(quant_max);
  plan.params0.eps = utils::to_f32(eps);
  if (graph.has_feature(Feature::ShaderF16) && (input->dtype == DType::Float16)) {
    plan.route0 = 0;  // choose_qparams_rows_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(rows, 4), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (input->dtype == DType::Float16) {
    plan.route0 = 1;  // choose_qparams_rows_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(rows, 4), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // choose_qparams_rows
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(rows, 4), 1,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_choose_qparams_affine_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor* input = graph.is_null(args[0]) ? nullptr : &graph.get_tensor(args[0]);
  const bool keepdim = graph.get_bool(args[9]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[10]);
  Tensor& scale = graph.get_tensor(utils::at(out, 0));
  Tensor& zero_point = graph.get_tensor(utils::at(out, 1));
  const std::vector<int64_t> row_shape = utils::let(
      kOp, "row_shape = input.dims[:-1] + ([1] if keepdim else []) if input.present else []",
      [&]() -> std::vector<int64_t> {
        return (input != nullptr)
                   ? utils::concat(utils::slice(input->dims(), 0, -1),
                                   keepdim ? std::vector<int64_t>{1} : std::vector<int64_t>{})
                   : std::vector<int64_t>{};
      });
  utils::resize_output(kOp, "scale", scale, row_shape);
  utils::resize_output(kOp, "zero_point", zero_point, row_shape);
}

void add_choose_qparams_affine(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ChooseQparamsAffinePlan built = plan_choose_qparams_affine(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), !graph.is_null(args[0]) ? Binding::of(args[0]) : Binding::dummy(),
       Binding::of(graph.get_value_list(args[10])[0]),
       Binding::of(graph.get_value_list(args[10])[1])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_choose_qparams_affine_outputs(graph, args);
    const ChooseQparamsAffinePlan plan = plan_choose_qparams_affine(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(torchao.choose_qparams_affine.default,
                   webgpu_delegate::add_choose_qparams_affine, None);
