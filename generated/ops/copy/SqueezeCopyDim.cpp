// @generated from codegen/specs/copy/copy.py - DO NOT EDIT.
// Op squeeze_copy_dim: aten.squeeze_copy.dim

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "squeeze_copy_dim";

// The argument values, checked and turned into what each dispatch needs.
struct SqueezeCopyDimPlan {
  uint64_t nbytes0 = 0;
};

SqueezeCopyDimPlan plan_squeeze_copy_dim(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  const int64_t wrap = utils::let(kOp, "wrap = max(self.rank, 1)",
                                  [&]() -> int64_t { return utils::max_of(self.rank(), 1); });
  const std::vector<int64_t> outside = utils::let(
      kOp, "outside = [x for x in [dim] if x < -wrap or x >= wrap]", [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _x : std::vector<int64_t>{dim}) {
            if ((_x < -wrap) || (_x >= wrap)) _values.push_back(_x);
          }
          return _values;
        }();
      });
  const std::vector<int64_t> squeezed = utils::let(
      kOp, "squeezed = [x + wrap if x < 0 else x for x in [dim]]", [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _x : std::vector<int64_t>{dim}) {
            _values.push_back((_x < 0) ? utils::add(_x, wrap) : _x);
          }
          return _values;
        }();
      });
  const std::vector<int64_t> repeated = utils::let(
      kOp, "repeated = [squeezed[k] for k in range(len(squeezed)) if squeezed[k] in squeezed[:k]]",
      [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(utils::length(squeezed))) {
            if (utils::contains(utils::slice(squeezed, 0, _k), utils::at(squeezed, _k)))
              _values.push_back(utils::at(squeezed, _k));
          }
          return _values;
        }();
      });
  if (utils::length(outside) != 0) {
    utils::fail(
        kOp, "dim", "is out of range", utils::format_value(dim),
        "dims in " + utils::format_value(-wrap) + ".." + utils::format_value(utils::sub(wrap, 1)));
  }
  utils::check_output_dims(kOp, "out", out, [&]() {
    std::vector<int64_t> _values;
    for (const auto& _k : utils::range(self.rank())) {
      if (!utils::contains(squeezed, _k) || (self.dim(_k) != 1)) _values.push_back(self.dim(_k));
    }
    return _values;
  }());

  SqueezeCopyDimPlan plan;
  plan.nbytes0 = utils::mul(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4), out.numel());
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_squeeze_copy_dim_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  Tensor& out = graph.get_tensor(args[2]);
  const int64_t wrap = utils::let(kOp, "wrap = max(self.rank, 1)",
                                  [&]() -> int64_t { return utils::max_of(self.rank(), 1); });
  const std::vector<int64_t> squeezed = utils::let(
      kOp, "squeezed = [x + wrap if x < 0 else x for x in [dim]]", [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _x : std::vector<int64_t>{dim}) {
            _values.push_back((_x < 0) ? utils::add(_x, wrap) : _x);
          }
          return _values;
        }();
      });
  utils::resize_output(kOp, "out", out, [&]() {
    std::vector<int64_t> _values;
    for (const auto& _k : utils::range(self.rank())) {
      if (!utils::contains(squeezed, _k) || (self.dim(_k) != 1)) _values.push_back(self.dim(_k));
    }
    return _values;
  }());
}

void add_squeeze_copy_dim(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SqueezeCopyDimPlan built = plan_squeeze_copy_dim(graph, args);
  // A dispatch cannot read and write one buffer; an aliased output needs no copy.
  const bool copy0 = !graph.same_buffer(args[0], args[2]);
  const DispatchId dispatch0 = copy0 ? graph.add_copy(args[0], args[2], built.nbytes0) : 0;
  graph.add_resize_hook([args, dispatch0, copy0](WebGPUGraph& graph) {
    resize_squeeze_copy_dim_outputs(graph, args);
    const SqueezeCopyDimPlan plan = plan_squeeze_copy_dim(graph, args);
    if (copy0) {
      graph.update_copy(dispatch0, plan.nbytes0);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.squeeze_copy.dim, webgpu_delegate::add_squeeze_copy_dim,
                   OutputMayShareInput);
