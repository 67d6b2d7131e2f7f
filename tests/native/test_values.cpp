// The value table: typed getters, tensor buffers, views, nodes.
#include "check.h"
#include "device_fixture.h"
#include "webgpu_delegate/graph.h"

using namespace webgpu_delegate;

TEST(typed_getters_return_what_was_added) {
  WebGPUGraph g(test_device());
  const ValueRef i = g.add_int(-7);
  const ValueRef d = g.add_double(2.5);
  const ValueRef b = g.add_bool(true);
  const ValueRef s = g.add_string("same");
  const ValueRef il = g.add_int_list({1, 2, 3});
  const ValueRef dl = g.add_double_list({0.5, -1.0});
  const ValueRef bl = g.add_bool_list({true, false});
  const ValueRef vl = g.add_value_list({i, d});
  const ValueRef si = g.add_symint(12);
  const ValueRef n = g.add_null();
  CHECK_EQ(g.num_values(), 10u);
  CHECK_EQ(g.get_int(i), -7);
  CHECK_EQ(g.get_double(d), 2.5);
  CHECK(g.get_bool(b));
  CHECK_EQ(g.get_string(s), std::string("same"));
  CHECK(g.get_int_list(il) == (std::vector<int64_t>{1, 2, 3}));
  CHECK(g.get_double_list(dl) == (std::vector<double>{0.5, -1.0}));
  CHECK(g.get_bool_list(bl) == (std::vector<bool>{true, false}));
  CHECK(g.get_value_list(vl) == (std::vector<ValueRef>{i, d}));
  CHECK_EQ(g.get_symint(si), 12);
  g.set_symint(si, 5);
  CHECK_EQ(g.get_symint(si), 5);
  CHECK(g.is_null(n));
  CHECK(g.type_of(vl) == ValueType::ValueList);
  CHECK_EQ(g.get_int_or_symint(i), -7);
  CHECK_EQ(g.get_int_or_symint(si), 5);
  CHECK_EQ(g.get_scalar(i), -7.0);
  CHECK_EQ(g.get_scalar(d), 2.5);
  CHECK_EQ(g.get_scalar(b), 1.0);
}

TEST(typed_getters_throw_on_a_mismatch_with_clear_text) {
  WebGPUGraph g(test_device());
  const ValueRef t = g.add_tensor(DType::Float32, {2, 3});  // value 0
  const ValueRef i = g.add_int(3);                          // value 1
  const ValueRef n = g.add_null();                          // value 2
  const ValueRef d = g.add_double(1.0);                     // value 3
  CHECK_THROWS(Error, g.get_tensor(i), "WebGPU graph: value 1 is Int, expected Tensor");
  CHECK_THROWS(Error, g.get_int(t), "WebGPU graph: value 0 is Tensor, expected Int");
  CHECK_THROWS(Error, g.get_double(i), "WebGPU graph: value 1 is Int, expected Double");
  CHECK_THROWS(Error, g.get_bool(n), "WebGPU graph: value 2 is Null, expected Bool");
  CHECK_THROWS(Error, g.get_string(i), "value 1 is Int, expected String");
  CHECK_THROWS(Error, g.get_int_list(d), "value 3 is Double, expected IntList");
  CHECK_THROWS(Error, g.get_double_list(i), "expected DoubleList");
  CHECK_THROWS(Error, g.get_bool_list(i), "expected BoolList");
  CHECK_THROWS(Error, g.get_value_list(i), "expected ValueList");
  CHECK_THROWS(Error, g.get_symint(i), "value 1 is Int, expected SymInt");
  CHECK_THROWS(Error, g.set_symint(i, 4), "value 1 is Int, expected SymInt");
  CHECK_THROWS(Error, g.get_int_or_symint(d), "value 3 is Double, expected Int or SymInt");
  CHECK_THROWS(Error, g.get_scalar(t),
               "value 0 is Tensor, expected Int, Double or Bool (a Scalar)");
  CHECK_THROWS(Error, g.get_int(99),
               "WebGPU graph: value 99 does not exist (the graph has 4 values)");
  CHECK_THROWS(Error, g.get_int(-1), "value -1 does not exist");
  CHECK_THROWS(Error, g.add_value_list({0, 42}), "value 42 does not exist");
  const WebGPUGraph& cg = g;
  CHECK_THROWS(Error, cg.get_tensor(n), "value 2 is Null, expected Tensor");
}

TEST(tensor_buffers_are_whole_vec4s) {
  WebGPUGraph g(test_device());
  struct Case {
    DType dtype;
    std::vector<int64_t> dims;
    uint64_t bytes;
  };
  const Case cases[] = {
      {DType::Float32, {2, 3}, 32}, {DType::UInt8, {3}, 16},    {DType::UInt8, {17}, 32},
      {DType::Bool, {1}, 16},       {DType::Float16, {5}, 16}, {DType::Int64, {0, 4}, 16},
      {DType::Float32, {}, 16},     {DType::Int32, {8}, 32},
  };
  for (const auto& c : cases) {
    const ValueRef r = g.add_tensor(c.dtype, c.dims);
    const Tensor& t = g.get_tensor(r);
    CHECK_EQ(t.buffer_bytes, c.bytes);
    CHECK(t.buffer != nullptr);
    CHECK(t.max_dims == c.dims);
    CHECK(t.live_dims == c.dims);
  }
  CHECK_THROWS(Error, g.add_tensor(DType::Float32, {2, -1}), "has a negative dim (got [2, -1])");
  CHECK_THROWS(Error, g.add_tensor(DType::Float32, {1LL << 40, 1LL << 30}), "too many");
  CHECK_THROWS(Error, g.add_tensor(DType::Float32, {1LL << 40}),
               "more than the device's maxBufferSize");
}

TEST(tensor_dims_and_indexing) {
  WebGPUGraph g(test_device());
  const Tensor& t = g.get_tensor(g.add_tensor(DType::Float32, {2, 3, 4}));
  CHECK_EQ(t.rank(), 3);
  CHECK_EQ(t.numel(), 24);
  CHECK_EQ(t.nbytes(), 96u);
  CHECK_EQ(t.dim(-1), 4);
  CHECK_EQ(t.dim(0), 2);
  CHECK_THROWS(Error, t.dim(3), "index 3 out of range for 3 values");
}

TEST(views_alias_their_base_buffer) {
  WebGPUGraph g(test_device());
  const ValueRef base = g.add_tensor(DType::Float32, {4, 6});
  const ValueRef view = g.add_tensor_view(base, {24});
  const ValueRef other = g.add_tensor(DType::Float32, {24});
  CHECK(g.same_buffer(base, view));
  CHECK(!g.same_buffer(base, other));
  CHECK(g.get_tensor(view).dims() == (std::vector<int64_t>{24}));
  CHECK_THROWS(Error, g.add_tensor_view(base, {25}), "needs 100 bytes, the base buffer holds 96");
}

TEST(resizes_are_checked) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4, 3});
  g.set_input_dims(x, {2, 3});
  CHECK(g.get_tensor(x).dims() == (std::vector<int64_t>{2, 3}));
  CHECK_THROWS(Error, g.set_input_dims(x, {5, 3}),
               "value 0 new dims do not fit its max dims (got [5, 3], expected rank 2 and each dim "
               "within [4, 3])");
  CHECK_THROWS(Error, g.set_input_dims(x, {12}), "got [12], expected rank 2");
  g.resize_tensor(x, {12});  // hooks may reshape within the buffer
  CHECK_THROWS(Error, g.resize_tensor(x, {13}), "needs 52 bytes, its buffer holds 48");
  int calls = 0;
  g.add_resize_hook([&](WebGPUGraph&) { ++calls; });
  g.resize_input(x, {1, 3});
  CHECK_EQ(calls, 1);
}

TEST(unknown_op_at_add_node_names_the_target) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4});
  CHECK_THROWS(Error, g.add_node("aten.not_an_op.default", {x}),
               "WebGPU graph: no op registered for target 'aten.not_an_op.default'");
  CHECK_EQ(g.num_nodes(), 0u);
}

TEST(handler_errors_pass_through_unchanged) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Int32, {4});
  const ValueRef alpha = g.add_double(2.0);
  const ValueRef out = g.add_tensor(DType::Float32, {4});
  CHECK_THROWS(Error, g.add_node("test.scale.default", {x, alpha, out}),
               "WebGPU test.scale: x has the wrong dtype (got int32, expected float32)");
  const ValueRef y = g.add_tensor(DType::Float32, {4});
  CHECK_THROWS(Error, g.add_node("test.scale.default", {y, y, out}),
               "WebGPU graph: value 3 is Tensor, expected Int, Double or Bool (a Scalar)");
}
