// @generated from codegen/specs/symint/symint.py - DO NOT EDIT.
// Op select_as_symint: et_vk.select_as_symint.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "select_as_symint";

// The argument values, checked and turned into what each dispatch needs.
struct SelectAsSymintPlan {};

SelectAsSymintPlan plan_select_as_symint(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& x = graph.read_on_host(args[0], kOp, "x");
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const int64_t index = utils::read_int(graph, args[2], kOp, "index", false);
  utils::check_dtype(kOp, "x", x, {DType::Int32, DType::Int64});
  if ((dim < -x.rank()) || (dim >= x.rank())) {
    utils::fail(
        kOp, "dim", "is out of range", utils::format_value(dim),
        "-" + utils::format_value(x.rank()) + ".." + utils::format_value(utils::sub(x.rank(), 1)));
  }
  if (x.numel() != x.dim(dim)) {
    utils::fail(kOp, "x", "holds more than one element per index of dim",
                utils::format_value(x.dims()),
                "size 1 in every dim but " + utils::format_value(dim));
  }
  if ((index < -x.dim(dim)) || (index >= x.dim(dim))) {
    utils::fail(kOp, "index", "is out of range", utils::format_value(index),
                "-" + utils::format_value(x.dim(dim)) + ".." +
                    utils::format_value(utils::sub(x.dim(dim), 1)));
  }

  SelectAsSymintPlan plan;
  graph.set_symint(args[3], utils::at(x.values(), utils::floormod(index, x.dim(dim))));
  return plan;
}

void add_select_as_symint(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  plan_select_as_symint(graph, args);
  graph.add_resize_hook([args](WebGPUGraph& graph) { plan_select_as_symint(graph, args); });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.select_as_symint.default, webgpu_delegate::add_select_as_symint, None);
