// Checks and packing helpers shared by every generated op handler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/utils.h"

namespace webgpu_delegate {
namespace utils {

// A tensor's dtype in a message (`t.dtype` in a guard's got or expected), by spec name.
inline std::string format_value(DType d) {
  return dtype_name(d);
}

// A graph (e.g. a hostile .pte) may hand a handler any number of arguments.
inline void check_arg_count(const char* op, const std::vector<ValueRef>& args, size_t expected) {
  if (args.size() != expected) {
    fail(op, "arguments", "have the wrong count", args.size(), expected);
  }
}

inline void check_dtype(const char* op, const char* argument, const Tensor& t,
                        std::initializer_list<DType> allowed) {
  std::string expected;
  for (DType d : allowed) {
    if (d == t.dtype) return;
    expected += (expected.empty() ? "" : " or ") + std::string(dtype_name(d));
  }
  fail(op, argument, "has an unsupported dtype", dtype_name(t.dtype), expected);
}

inline void check_rank(const char* op, const char* argument, const Tensor& t, int64_t lo,
                       int64_t hi) {
  if (t.rank() < lo || t.rank() > hi) {
    fail(op, argument, "has the wrong rank", t.rank(),
         lo == hi ? utils::message(lo) : utils::message(lo, "..", hi));
  }
}

// An `int` / `SymInt` argument, decoded as the ExecuTorch graph may carry it:
// Int, SymInt (when the schema says SymInt) or an integral Double. Null is
// decided by the caller (the argument's default, or an error).
inline int64_t read_int(const WebGPUGraph& graph, ValueRef ref, const char* op,
                        const char* argument, bool symbolic) {
  const ValueType type = graph.type_of(ref);
  if (type == ValueType::Int) return graph.get_int(ref);
  if (type == ValueType::SymInt && symbolic) return graph.get_symint(ref);
  if (type == ValueType::Double) return integral_to_int(graph.get_double(ref), op, argument);
  fail(op, argument, "has the wrong value type", value_type_name(type),
       symbolic ? "Int, SymInt or an integral Double" : "Int or an integral Double");
}

// An int list argument: an IntList, or a ValueList of Int and SymInt values (a shape with
// a dynamic dim: ExecuTorch serializes `SymInt[]` holding a SymInt so), read live.
inline std::vector<int64_t> read_int_list(const WebGPUGraph& graph, ValueRef ref, const char* op,
                                          const char* argument) {
  const ValueType type = graph.type_of(ref);
  if (type == ValueType::IntList) return graph.get_int_list(ref);
  if (type != ValueType::ValueList) {
    fail(op, argument, "has the wrong value type", value_type_name(type),
         "IntList or a ValueList of Int and SymInt");
  }
  std::vector<int64_t> values;
  for (ValueRef item : graph.get_value_list(ref)) {
    values.push_back(read_int(graph, item, op, argument, true));
  }
  return values;
}

// A `float` argument: a Double, or an Int (ExecuTorch's serializer writes a float
// argument whose Python value is an int, e.g. q8ta_add's alpha = 1, as Int).
inline double read_double(const WebGPUGraph& graph, ValueRef ref, const char* op,
                          const char* argument) {
  const ValueType type = graph.type_of(ref);
  if (type == ValueType::Double) return graph.get_double(ref);
  if (type == ValueType::Int) return static_cast<double>(graph.get_int(ref));
  fail(op, argument, "has the wrong value type", value_type_name(type), "Double or Int");
}

// The number of outputs a variable-length output list must hold.
inline void check_output_count(const char* op, const char* argument,
                               const std::vector<ValueRef>& outputs, int64_t expected) {
  if (static_cast<int64_t>(outputs.size()) != expected) {
    fail(op, argument, "holds the wrong number of outputs", outputs.size(), expected);
  }
}

// Build: the output must have been allocated with the op's output shape.
// Resize: the live shape follows the formula, within the allocation.
inline void check_output_dims(const char* op, const char* argument, const Tensor& t,
                              const std::vector<int64_t>& expected) {
  if (t.dims() != expected) {
    fail(op, argument, "has dims that do not match the op's output shape", t.dims(), expected);
  }
}

inline void resize_output(const char* op, const char* argument, Tensor& t,
                          const std::vector<int64_t>& dims) {
  if (dims.size() != t.max_dims.size() || prod(dims) > prod(t.max_dims)) {
    fail(op, argument, "cannot take the resized shape within its allocation", dims,
         message("at most ", t.max_dims));
  }
  t.live_dims = dims;
}

// Static-only ops: the live shape must stay the shape the op was built for.
inline void check_not_resized(const char* op, const char* argument, const Tensor& t) {
  if (t.live_dims != t.max_dims) {
    fail(op, argument, "was resized, but this op supports static shapes only", t.live_dims,
         t.max_dims);
  }
}

// A let's value (`let` is "<name> = <expression>"). Lets run before guards, so a let that
// assumes what a guard checks fails first: the error names the op and the let (the
// Python executors raise the same text, codegen/graph/errors.py let_failure).
template <class F>
auto let(const char* op, const char* let, F&& value) -> decltype(value()) {
  try {
    return value();
  } catch (const Error& e) {
    throw Error(message("WebGPU ", op, ": let ", let, " failed: ", e.what(),
                        " (lets run before guards: each must hold for every input the tensor "
                        "checks accept)"));
  }
}

// --- packing list values into Params vector/array fields ------------------
template <class T>
T narrow(int64_t v, const char* op, const char* field);
template <>
inline uint32_t narrow<uint32_t>(int64_t v, const char* op, const char* field) {
  return to_u32(v, op, field);
}
template <>
inline int32_t narrow<int32_t>(int64_t v, const char* op, const char* field) {
  return to_i32(v, op, field);
}
template <>
inline float narrow<float>(int64_t v, const char*, const char*) {
  return static_cast<float>(v);
}

// vecN<T> field
template <class T, size_t N>
void pack(T (&dst)[N], const std::vector<int64_t>& values, const char* op, const char* field) {
  if (values.size() != N) {
    fail(op, field, "needs one value per component", values.size(), N);
  }
  for (size_t i = 0; i < N; ++i) dst[i] = narrow<T>(values[i], op, field);
}

// array<vecL<T>, C> field (S = element stride in scalars, L <= S lanes used)
template <class T, size_t C, size_t S>
void pack(T (&dst)[C][S], size_t lanes, const std::vector<int64_t>& values, const char* op,
          const char* field) {
  if (values.size() != C * lanes) {
    fail(op, field, "needs one value per component", values.size(), C * lanes);
  }
  for (size_t i = 0; i < values.size(); ++i) {
    dst[i / lanes][i % lanes] = narrow<T>(values[i], op, field);
  }
}

}  // namespace utils
}  // namespace webgpu_delegate
