// The value table: typed getters, tensor buffers, views, nodes.
#include "device_fixture.h"
#include "throws.h"
#include "webgpu_delegate/graph.h"

using namespace webgpu_delegate;

namespace {
int g_hook_runs = 0;

// test.follow(Tensor x, Tensor out, SymInt? position): no dispatch; its resize hook counts
// its runs and gives out x's dims.
void add_follow(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  graph.add_resize_hook([x = args[0], out = args[1]](WebGPUGraph& g) {
    ++g_hook_runs;
    g.resize_tensor(out, g.get_tensor(x).dims());
  });
}
}  // namespace

WEBGPU_REGISTER_OP(test.follow.default, add_follow, None);

TEST(Values, typed_getters_return_what_was_added) {
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
  ASSERT_EQ(g.num_values(), 10u);
  ASSERT_EQ(g.get_int(i), -7);
  ASSERT_EQ(g.get_double(d), 2.5);
  ASSERT_TRUE(g.get_bool(b));
  ASSERT_EQ(g.get_string(s), std::string("same"));
  ASSERT_TRUE(g.get_int_list(il) == (std::vector<int64_t>{1, 2, 3}));
  ASSERT_TRUE(g.get_double_list(dl) == (std::vector<double>{0.5, -1.0}));
  ASSERT_TRUE(g.get_bool_list(bl) == (std::vector<bool>{true, false}));
  ASSERT_TRUE(g.get_value_list(vl) == (std::vector<ValueRef>{i, d}));
  ASSERT_EQ(g.get_symint(si), 12);
  g.set_symint(si, 5);
  ASSERT_EQ(g.get_symint(si), 5);
  ASSERT_TRUE(g.is_null(n));
  ASSERT_TRUE(g.type_of(vl) == ValueType::ValueList);
  ASSERT_EQ(g.get_int_or_symint(i), -7);
  ASSERT_EQ(g.get_int_or_symint(si), 5);
  ASSERT_EQ(g.get_scalar(i), -7.0);
  ASSERT_EQ(g.get_scalar(d), 2.5);
  ASSERT_EQ(g.get_scalar(b), 1.0);
}

TEST(Values, typed_getters_throw_on_a_mismatch_with_clear_text) {
  WebGPUGraph g(test_device());
  const ValueRef t = g.add_tensor(DType::Float32, {2, 3});  // value 0
  const ValueRef i = g.add_int(3);                          // value 1
  const ValueRef n = g.add_null();                          // value 2
  const ValueRef d = g.add_double(1.0);                     // value 3
  ASSERT_THROWS_WITH(Error, g.get_tensor(i), "WebGPU graph: value 1 is Int, expected Tensor");
  ASSERT_THROWS_WITH(Error, g.get_int(t), "WebGPU graph: value 0 is Tensor, expected Int");
  ASSERT_THROWS_WITH(Error, g.get_double(i), "WebGPU graph: value 1 is Int, expected Double");
  ASSERT_THROWS_WITH(Error, g.get_bool(n), "WebGPU graph: value 2 is Null, expected Bool");
  ASSERT_THROWS_WITH(Error, g.get_string(i), "value 1 is Int, expected String");
  ASSERT_THROWS_WITH(Error, g.get_int_list(d), "value 3 is Double, expected IntList");
  ASSERT_THROWS_WITH(Error, g.get_double_list(i), "expected DoubleList");
  ASSERT_THROWS_WITH(Error, g.get_bool_list(i), "expected BoolList");
  ASSERT_THROWS_WITH(Error, g.get_value_list(i), "expected ValueList");
  ASSERT_THROWS_WITH(Error, g.get_symint(i), "value 1 is Int, expected SymInt");
  ASSERT_THROWS_WITH(Error, g.set_symint(i, 4), "value 1 is Int, expected SymInt");
  ASSERT_THROWS_WITH(Error, g.get_int_or_symint(d), "value 3 is Double, expected Int or SymInt");
  ASSERT_THROWS_WITH(Error, g.get_scalar(t),
                     "value 0 is Tensor, expected Int, Double or Bool (a Scalar)");
  ASSERT_THROWS_WITH(Error, g.get_int(99),
                     "WebGPU graph: value 99 does not exist (the graph has 4 values)");
  ASSERT_THROWS_WITH(Error, g.get_int(-1), "value -1 does not exist");
  ASSERT_THROWS_WITH(Error, g.add_value_list({0, 42}), "value 42 does not exist");
  const WebGPUGraph& cg = g;
  ASSERT_THROWS_WITH(Error, cg.get_tensor(n), "value 2 is Null, expected Tensor");
}

TEST(Values, tensor_buffers_are_whole_vec4s) {
  WebGPUGraph g(test_device());
  struct Case {
    DType dtype;
    std::vector<int64_t> dims;
    uint64_t bytes;
  };
  const Case cases[] = {
      {DType::Float32, {2, 3}, 32}, {DType::UInt8, {3}, 16},   {DType::UInt8, {17}, 32},
      {DType::Bool, {1}, 16},       {DType::Float16, {5}, 16}, {DType::Int64, {0, 4}, 16},
      {DType::Float32, {}, 16},     {DType::Int32, {8}, 32},
  };
  for (const auto& c : cases) {
    const ValueRef r = g.add_tensor(c.dtype, c.dims);
    const Tensor& t = g.get_tensor(r);
    ASSERT_EQ(t.buffer_bytes, c.bytes);
    ASSERT_TRUE(t.buffer != nullptr);
    ASSERT_TRUE(t.max_dims == c.dims);
    ASSERT_TRUE(t.live_dims == c.dims);
  }
  ASSERT_THROWS_WITH(Error, g.add_tensor(DType::Float32, {2, -1}),
                     "has a negative dim (got [2, -1])");
  ASSERT_THROWS_WITH(Error, g.add_tensor(DType::Float32, {1LL << 40, 1LL << 30}), "too many");
  ASSERT_THROWS_WITH(Error, g.add_tensor(DType::Float32, {1LL << 40}),
                     "more than the device's maxBufferSize");
}

TEST(Values, tensor_dims_and_indexing) {
  WebGPUGraph g(test_device());
  const Tensor& t = g.get_tensor(g.add_tensor(DType::Float32, {2, 3, 4}));
  ASSERT_EQ(t.rank(), 3);
  ASSERT_EQ(t.numel(), 24);
  ASSERT_EQ(t.nbytes(), 96u);
  ASSERT_EQ(t.dim(-1), 4);
  ASSERT_EQ(t.dim(0), 2);
  ASSERT_THROWS_WITH(Error, t.dim(3), "index 3 out of range for 3 values");
}

TEST(Values, views_alias_their_base_buffer) {
  WebGPUGraph g(test_device());
  const ValueRef base = g.add_tensor(DType::Float32, {4, 6});
  const ValueRef view = g.add_tensor_view(base, {24});
  const ValueRef other = g.add_tensor(DType::Float32, {24});
  ASSERT_TRUE(g.same_buffer(base, view));
  ASSERT_TRUE(!g.same_buffer(base, other));
  ASSERT_TRUE(g.get_tensor(view).dims() == (std::vector<int64_t>{24}));
  ASSERT_THROWS_WITH(Error, g.add_tensor_view(base, {25}),
                     "needs 100 bytes, the base buffer holds 96");
}

TEST(Values, shared_tensors_take_the_largest_buffer_of_their_key) {
  WebGPUGraph g(test_device());
  const ValueRef first = g.add_shared_tensor("partial", DType::Float32, {8});
  const ValueRef smaller = g.add_shared_tensor("partial", DType::Float32, {4});
  const ValueRef other_key = g.add_shared_tensor("other", DType::Float32, {4});
  ASSERT_TRUE(g.same_buffer(first, smaller));
  ASSERT_TRUE(!g.same_buffer(first, other_key));
  ASSERT_EQ(g.get_tensor(smaller).buffer_bytes, 32u);  // the shared buffer's, not its own
  // a larger ask gets a buffer of its own, which later asks share; earlier ones keep theirs
  const ValueRef larger = g.add_shared_tensor("partial", DType::Float32, {12});
  const ValueRef after = g.add_shared_tensor("partial", DType::Int32, {10});
  ASSERT_TRUE(!g.same_buffer(first, larger));
  ASSERT_TRUE(g.same_buffer(larger, after));
  ASSERT_EQ(g.get_tensor(first).buffer_bytes, 32u);
  g.resize_tensor(smaller, {8});  // within the shared buffer
  ASSERT_THROWS_WITH(Error, g.resize_tensor(smaller, {9}), "needs 36 bytes, its buffer holds 32");
}

TEST(Values, resizes_are_checked) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4, 3});
  g.set_input_dims(x, {2, 3});
  ASSERT_TRUE(g.get_tensor(x).dims() == (std::vector<int64_t>{2, 3}));
  ASSERT_THROWS_WITH(
      Error, g.set_input_dims(x, {5, 3}),
      "value 0 new dims do not fit its max dims (got [5, 3], expected rank 2 and each dim "
      "within [4, 3])");
  ASSERT_THROWS_WITH(Error, g.set_input_dims(x, {12}), "got [12], expected rank 2");
  g.resize_tensor(x, {12});  // hooks may reshape within the buffer
  ASSERT_THROWS_WITH(Error, g.resize_tensor(x, {13}), "needs 52 bytes, its buffer holds 48");
  int calls = 0;
  g.add_resize_hook([&](WebGPUGraph&) { ++calls; });
  g.resize_input(x, {1, 3});
  ASSERT_EQ(calls, 1);
}

TEST(Values, resize_runs_the_hooks_of_nodes_that_read_a_changed_value) {
  WebGPUGraph g(test_device());
  const ValueRef a = g.add_tensor(DType::Float32, {4, 3});
  const ValueRef b = g.add_tensor(DType::Float32, {4, 3});
  const ValueRef c = g.add_tensor(DType::Float32, {4, 3});
  const ValueRef u = g.add_tensor(DType::Float32, {4, 3});
  const ValueRef v = g.add_tensor(DType::Float32, {4, 3});
  const ValueRef w = g.add_tensor(DType::Float32, {4, 3});
  const ValueRef position = g.add_symint(5);
  g.add_node("test.follow.default", {a, b});
  g.add_node("test.follow.default", {b, c});  // reads what the first one writes
  g.add_node("test.follow.default", {u, v});
  g.add_node("test.follow.default", {u, w, position});
  const auto dims = [&](ValueRef t) { return g.get_tensor(t).dims(); };
  const std::vector<int64_t> full{4, 3};

  g_hook_runs = 0;
  g.set_input_dims(a, {2, 3});
  g.propagate_resize();
  ASSERT_EQ(g_hook_runs, 2);  // a -> b -> c; u's nodes read nothing that changed
  ASSERT_TRUE(dims(c) == (std::vector<int64_t>{2, 3}));
  ASSERT_TRUE(dims(v) == full);

  g_hook_runs = 0;
  g.set_input_dims(a, {2, 3});  // the same dims: nothing to redo
  g.propagate_resize();
  ASSERT_EQ(g_hook_runs, 0);

  g.set_symint(position, 6);  // only the node that reads the position
  g.propagate_resize();
  ASSERT_EQ(g_hook_runs, 1);

  g_hook_runs = 0;
  g.set_input_dims(u, {1, 3});
  g.propagate_resize();
  ASSERT_EQ(g_hook_runs, 2);
  ASSERT_TRUE(dims(v) == (std::vector<int64_t>{1, 3}) && dims(w) == dims(v));
  ASSERT_TRUE(dims(c) == (std::vector<int64_t>{2, 3}));

  int unattached = 0;  // a hook added outside add_node reads anything: it always runs
  g.add_resize_hook([&](WebGPUGraph&) { ++unattached; });
  g.propagate_resize();
  ASSERT_EQ(unattached, 1);
}

TEST(Values, unknown_op_at_add_node_names_the_target) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Float32, {4});
  ASSERT_THROWS_WITH(Error, g.add_node("aten.not_an_op.default", {x}),
                     "WebGPU graph: no op registered for target 'aten.not_an_op.default'");
  ASSERT_EQ(g.num_nodes(), 0u);
}

TEST(Values, handler_errors_pass_through_unchanged) {
  WebGPUGraph g(test_device());
  const ValueRef x = g.add_tensor(DType::Int32, {4});
  const ValueRef alpha = g.add_double(2.0);
  const ValueRef out = g.add_tensor(DType::Float32, {4});
  ASSERT_THROWS_WITH(Error, g.add_node("test.scale.default", {x, alpha, out}),
                     "WebGPU test.scale: x has the wrong dtype (got int32, expected float32)");
  const ValueRef y = g.add_tensor(DType::Float32, {4});
  ASSERT_THROWS_WITH(Error, g.add_node("test.scale.default", {y, y, out}),
                     "WebGPU graph: value 3 is Tensor, expected Int, Double or Bool (a Scalar)");
}
