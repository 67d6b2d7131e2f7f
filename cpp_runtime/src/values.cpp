// The value table: dtype/value-type names, adding scalar and list values, and
// the typed getters.
#include <limits>

#include "graph_impl.h"

namespace webgpu_delegate {

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return "float32";
    case DType::Int32:
      return "int32";
    case DType::Int64:
      return "int64";
    case DType::Bool:
      return "bool";
    case DType::Float16:
      return "float16";
    case DType::UInt8:
      return "uint8";
    case DType::Int8:
      return "int8";
  }
  throw Error(utils::message("WebGPU graph: invalid dtype ", static_cast<int>(dtype)));
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return 4;
    case DType::Int32:
      return 4;
    case DType::Int64:
      return 8;
    case DType::Bool:
      return 1;
    case DType::Float16:
      return 2;
    case DType::UInt8:
    case DType::Int8:
      return 1;
  }
  throw Error(utils::message("WebGPU graph: invalid dtype ", static_cast<int>(dtype)));
}

const char* value_type_name(ValueType type) {
  switch (type) {
    case ValueType::Null:
      return "Null";
    case ValueType::Int:
      return "Int";
    case ValueType::Double:
      return "Double";
    case ValueType::Bool:
      return "Bool";
    case ValueType::String:
      return "String";
    case ValueType::IntList:
      return "IntList";
    case ValueType::DoubleList:
      return "DoubleList";
    case ValueType::BoolList:
      return "BoolList";
    case ValueType::ValueList:
      return "ValueList";
    case ValueType::SymInt:
      return "SymInt";
    case ValueType::Tensor:
      return "Tensor";
  }
  return "Invalid";
}

std::string describe_tensor(const Tensor& t) {
  return std::string(dtype_name(t.dtype)) + utils::format_value(t.live_dims);
}

// Whole 16-byte units, so kernels may view any tensor as array<vec4<...>>: the last
// vec4 may run past the tensor's elements, never past its buffer.
uint64_t buffer_size_for(uint64_t bytes) {
  return bytes < 16 ? 16 : (bytes + 15) / 16 * 16;
}

int64_t checked_numel(const std::vector<int64_t>& dims, const std::string& what) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      throw Error(utils::message("WebGPU graph: ", what, " has a negative dim (got ", dims, ")"));
    }
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) {
      throw Error(
          utils::message("WebGPU graph: ", what, " has too many elements (got ", dims, ")"));
    }
    n *= d;
  }
  return n;
}

// --- Impl helpers -------------------------------------------------------------
const Value& WebGPUGraph::Impl::value(ValueRef ref) const {
  if (ref < 0 || static_cast<size_t>(ref) >= values.size()) {
    throw Error(utils::message("WebGPU graph: value ", ref, " does not exist (the graph has ",
                               values.size(), " values)"));
  }
  return values[static_cast<size_t>(ref)];
}

Value& WebGPUGraph::Impl::value(ValueRef ref) {
  return const_cast<Value&>(static_cast<const Impl*>(this)->value(ref));
}

ValueRef WebGPUGraph::Impl::push(ValueType type, decltype(Value::data) data) {
  if (values.size() >= static_cast<size_t>(std::numeric_limits<ValueRef>::max())) {
    throw Error("WebGPU graph: too many values");
  }
  values.push_back(Value{type, std::move(data)});
  return static_cast<ValueRef>(values.size() - 1);
}

ValueRef WebGPUGraph::Impl::push_tensor(DType dtype, std::vector<int64_t> dims, WGPUBuffer buffer,
                                        uint64_t bytes) {
  Tensor t;
  t.dtype = dtype;
  t.max_dims = dims;
  t.live_dims = std::move(dims);
  t.buffer = buffer;
  t.buffer_bytes = bytes;
  return push(ValueType::Tensor, std::move(t));
}

void WebGPUGraph::Impl::type_error(ValueRef ref, const char* expected) const {
  throw Error(utils::message("WebGPU graph: value ", ref, " is ", value_type_name(value(ref).type),
                             ", expected ", expected));
}

// --- adding -------------------------------------------------------------------
ValueRef WebGPUGraph::add_null() {
  return impl_->push(ValueType::Null, std::monostate{});
}
ValueRef WebGPUGraph::add_int(int64_t v) {
  return impl_->push(ValueType::Int, v);
}
ValueRef WebGPUGraph::add_double(double v) {
  return impl_->push(ValueType::Double, v);
}
ValueRef WebGPUGraph::add_bool(bool v) {
  return impl_->push(ValueType::Bool, v);
}
ValueRef WebGPUGraph::add_string(std::string v) {
  return impl_->push(ValueType::String, std::move(v));
}
ValueRef WebGPUGraph::add_int_list(std::vector<int64_t> v) {
  return impl_->push(ValueType::IntList, std::move(v));
}
ValueRef WebGPUGraph::add_double_list(std::vector<double> v) {
  return impl_->push(ValueType::DoubleList, std::move(v));
}
ValueRef WebGPUGraph::add_bool_list(std::vector<bool> v) {
  return impl_->push(ValueType::BoolList, std::move(v));
}
ValueRef WebGPUGraph::add_value_list(std::vector<ValueRef> v) {
  for (ValueRef r : v) impl_->value(r);  // every element must exist
  return impl_->push(ValueType::ValueList, std::move(v));
}
ValueRef WebGPUGraph::add_symint(int64_t v) {
  return impl_->push(ValueType::SymInt, v);
}

size_t WebGPUGraph::num_values() const {
  return impl_->values.size();
}
ValueType WebGPUGraph::type_of(ValueRef ref) const {
  return impl_->value(ref).type;
}
bool WebGPUGraph::is_null(ValueRef ref) const {
  return type_of(ref) == ValueType::Null;
}

// --- getters --------------------------------------------------------------------
Tensor& WebGPUGraph::get_tensor(ValueRef ref) {
  return const_cast<Tensor&>(static_cast<const WebGPUGraph*>(this)->get_tensor(ref));
}
const Tensor& WebGPUGraph::get_tensor(ValueRef ref) const {
  return impl_->get_as<Tensor>(ref, ValueType::Tensor);
}
int64_t WebGPUGraph::get_int(ValueRef ref) const {
  return impl_->get_as<int64_t>(ref, ValueType::Int);
}
double WebGPUGraph::get_double(ValueRef ref) const {
  return impl_->get_as<double>(ref, ValueType::Double);
}
bool WebGPUGraph::get_bool(ValueRef ref) const {
  return impl_->get_as<bool>(ref, ValueType::Bool);
}
const std::string& WebGPUGraph::get_string(ValueRef ref) const {
  return impl_->get_as<std::string>(ref, ValueType::String);
}
const std::vector<int64_t>& WebGPUGraph::get_int_list(ValueRef ref) const {
  return impl_->get_as<std::vector<int64_t>>(ref, ValueType::IntList);
}
const std::vector<double>& WebGPUGraph::get_double_list(ValueRef ref) const {
  return impl_->get_as<std::vector<double>>(ref, ValueType::DoubleList);
}
const std::vector<bool>& WebGPUGraph::get_bool_list(ValueRef ref) const {
  return impl_->get_as<std::vector<bool>>(ref, ValueType::BoolList);
}
const std::vector<ValueRef>& WebGPUGraph::get_value_list(ValueRef ref) const {
  return impl_->get_as<std::vector<ValueRef>>(ref, ValueType::ValueList);
}
int64_t WebGPUGraph::get_symint(ValueRef ref) const {
  return impl_->get_as<int64_t>(ref, ValueType::SymInt);
}

void WebGPUGraph::set_symint(ValueRef ref, int64_t v) {
  Value& value = impl_->value(ref);
  if (value.type != ValueType::SymInt) impl_->type_error(ref, "SymInt");
  if (std::get<int64_t>(value.data) != v) impl_->resize_pending.insert(ref);
  value.data = v;
}

int64_t WebGPUGraph::get_int_or_symint(ValueRef ref) const {
  const Value& v = impl_->value(ref);
  if (v.type != ValueType::Int && v.type != ValueType::SymInt) {
    impl_->type_error(ref, "Int or SymInt");
  }
  return std::get<int64_t>(v.data);
}

double WebGPUGraph::get_scalar(ValueRef ref) const {
  const Value& v = impl_->value(ref);
  switch (v.type) {
    case ValueType::Int:
    case ValueType::SymInt:
      return static_cast<double>(std::get<int64_t>(v.data));
    case ValueType::Double:
      return std::get<double>(v.data);
    case ValueType::Bool:
      return std::get<bool>(v.data) ? 1.0 : 0.0;
    default:
      impl_->type_error(ref, "Int, Double or Bool (a Scalar)");
  }
}

bool WebGPUGraph::same_buffer(ValueRef a, ValueRef b) const {
  return get_tensor(a).buffer == get_tensor(b).buffer;
}

}  // namespace webgpu_delegate
