// Constants of a graph and the dispatches that compute constants from them (run once,
// not on every execute): test ops, and the generated conv's weight pack.
#include <cmath>
#include <vector>

#include "device_fixture.h"
#include "fixtures/test_kernels.h"
#include "graph_io.h"
#include "throws.h"
#include "webgpu_delegate/graph.h"

using namespace webgpu_delegate;

namespace {

float max_diff(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return INFINITY;
  float worst = 0.0f;
  for (size_t i = 0; i < got.size(); ++i) worst = std::fmax(worst, std::fabs(got[i] - want[i]));
  return worst;
}

// out = x + 2 * w: w2 = test.scale(w, 2) reads only w, test.add_optional(x, w2) the input.
struct ScaleThenAdd {
  WebGPUGraph g{test_device()};
  ValueRef w = g.add_tensor(DType::Float32, {10});
  ValueRef x = g.add_tensor(DType::Float32, {10});
  ValueRef w2 = g.add_tensor(DType::Float32, {10});
  ValueRef out = g.add_tensor(DType::Float32, {10});

  explicit ScaleThenAdd(bool constant_weight) {
    write(g, w, iota(10, 1.0f));
    if (constant_weight) g.mark_constant(w);
    g.add_node("test.scale.default", {w, g.add_double(2.0), w2});
    g.add_node("test.add_optional.default", {x, w2, out});
  }

  // Runs with x = [k, k, ...]; out must be k + 2 * w.
  void run_and_check(float k, const std::vector<float>& weight) {
    write(g, x, std::vector<float>(10, k));
    g.execute();
    std::vector<float> want(10);
    for (size_t i = 0; i < 10; ++i) want[i] = k + 2.0f * weight[i];
    ASSERT_EQ(max_diff(read(g, out), want), 0.0f);
  }
  uint64_t runs(const char* kernel) { return g.kernel_runs()[kernel]; }
};

}  // namespace

TEST(Constants, a_dispatch_that_reads_only_constants_runs_once) {
  ScaleThenAdd m(/*constant_weight=*/true);
  ASSERT_TRUE(m.g.is_constant(m.w));
  ASSERT_TRUE(!m.g.is_constant(m.x));
  ASSERT_EQ(m.g.num_constant_dispatches(), 1u);
  m.run_and_check(1.0f, iota(10, 1.0f));
  ASSERT_EQ(m.g.last_execute_stats().dispatches, 2u);
  ASSERT_EQ(m.g.last_execute_stats().constant_runs, 1u);
  for (float k : {5.0f, -3.0f}) m.run_and_check(k, iota(10, 1.0f));
  ASSERT_EQ(m.g.last_execute_stats().dispatches, 1u);
  ASSERT_EQ(m.g.last_execute_stats().constant_runs, 0u);
  ASSERT_EQ(m.runs("test_scale"), 1u);
  ASSERT_EQ(m.runs("test_add_optional"), 3u);
}

TEST(Constants, without_constants_every_dispatch_runs_every_execute) {
  ScaleThenAdd m(/*constant_weight=*/false);
  ASSERT_EQ(m.g.num_constant_dispatches(), 0u);
  for (float k : {1.0f, 5.0f, -3.0f}) m.run_and_check(k, iota(10, 1.0f));
  ASSERT_EQ(m.runs("test_scale"), 3u);
  ASSERT_EQ(m.runs("test_add_optional"), 3u);
}

TEST(Constants, run_constant_dispatches_runs_them_before_the_first_execute) {
  ScaleThenAdd m(/*constant_weight=*/true);
  m.g.run_constant_dispatches();
  ASSERT_EQ(m.runs("test_scale"), 1u);
  ASSERT_EQ(m.runs("test_add_optional"), 0u);
  m.g.run_constant_dispatches();  // nothing left to run
  ASSERT_EQ(m.runs("test_scale"), 1u);
  m.run_and_check(2.0f, iota(10, 1.0f));
  ASSERT_EQ(m.g.last_execute_stats().dispatches, 1u);
  ASSERT_EQ(m.runs("test_scale"), 1u);
}

TEST(Constants, switched_off_every_dispatch_runs_every_execute) {
  ScaleThenAdd m(/*constant_weight=*/true);
  m.g.set_constant_dispatches_once(false);
  ASSERT_EQ(m.g.num_constant_dispatches(), 0u);
  for (float k : {1.0f, 5.0f}) m.run_and_check(k, iota(10, 1.0f));
  ASSERT_EQ(m.runs("test_scale"), 2u);
  m.g.set_constant_dispatches_once(true);
  for (float k : {1.0f, 5.0f}) m.run_and_check(k, iota(10, 1.0f));
  ASSERT_EQ(m.runs("test_scale"), 3u);
}

TEST(Constants, new_constant_data_runs_the_dispatches_that_read_it_again) {
  ScaleThenAdd m(/*constant_weight=*/true);
  m.run_and_check(1.0f, iota(10, 1.0f));
  write(m.g, m.w, iota(10, -4.0f, 0.5f));
  m.run_and_check(1.0f, iota(10, -4.0f, 0.5f));
  m.run_and_check(2.0f, iota(10, -4.0f, 0.5f));
  ASSERT_EQ(m.runs("test_scale"), 2u);
}

TEST(Constants, a_buffer_the_host_writes_is_recomputed_every_execute) {
  // The host overwrites w2, which the constant dispatch computed: the dispatch must
  // overwrite it again on each execute, as it did before constants were kept.
  ScaleThenAdd m(/*constant_weight=*/true);
  m.run_and_check(1.0f, iota(10, 1.0f));
  write(m.g, m.w2, std::vector<float>(10, 100.0f));
  m.run_and_check(1.0f, iota(10, 1.0f));
  ASSERT_EQ(m.g.num_constant_dispatches(), 0u);
  write(m.g, m.w2, std::vector<float>(10, 100.0f));
  m.run_and_check(3.0f, iota(10, 1.0f));
  ASSERT_EQ(m.runs("test_scale"), 3u);
}

TEST(Constants, a_constant_only_constant_dispatches_read_is_freed_after_load) {
  ScaleThenAdd m(/*constant_weight=*/true);
  m.g.run_constant_dispatches();
  ASSERT_EQ(m.g.release_consumed_constants({m.out}), 48u);  // w: 40 bytes in 16-byte units
  for (float k : {1.0f, 5.0f}) m.run_and_check(k, iota(10, 1.0f));
  ASSERT_EQ(m.runs("test_scale"), 1u);
  ASSERT_EQ(m.g.release_consumed_constants({m.out}), 0u);  // nothing left to free
  ASSERT_THROWS_WITH(Error, write(m.g, m.w, iota(10)),
                     "copy_in of value 0 (float32[10]): its buffer was freed after load");
  ASSERT_THROWS_WITH(Error, read(m.g, m.w), "copy_out of value 0");
  ASSERT_THROWS_WITH(Error, m.g.set_constant_dispatches_once(false),
                     "set_constant_dispatches_once after release_consumed_constants");
  m.run_and_check(2.0f, iota(10, 1.0f));
  m.g.mark_constant(m.x);  // a new constant: the plan would change
  ASSERT_THROWS_WITH(
      Error, m.g.execute(),
      "the constant dispatches would be planned again (a buffer they touch was "
      "written, or a dispatch was added), but 1 buffers only they touched were freed");
}

namespace {

// w3 = 3 * w by one test_scale dispatch (`id`), w a constant of 8 values.
struct ScaleDispatch {
  WebGPUGraph g{test_device()};
  ValueRef w = g.add_tensor(DType::Float32, {8});
  ValueRef w3 = g.add_tensor(DType::Float32, {8});
  test_ops::TestScaleParams p{8, 3.0f, 0, 0};
  utils::Grid grid{1, 1, 1};
  DispatchId id = 0;

  ScaleDispatch() {
    write(g, w, iota(8));
    g.mark_constant(w);
    id = g.add_dispatch(test_ops::test_scale_kernel(), {},
                        {Binding::of(w), Binding::of(w3), Binding::params()}, &p, sizeof p, grid);
  }
};

}  // namespace

TEST(Constants, a_freed_constant_whose_dispatch_must_run_again_fails_loud) {
  ScaleDispatch s;
  auto& [g, w, w3, p, grid, id] = s;
  g.run_constant_dispatches();
  ASSERT_EQ(g.release_consumed_constants({w3}), 32u);
  g.update_dispatch(id, &p, sizeof p, grid);  // the same params: still fresh
  g.execute();
  ASSERT_EQ(max_diff(read(g, w3), iota(8, 0.0f, 3.0f)), 0.0f);
  p.alpha = -1.0f;
  g.update_dispatch(id, &p, sizeof p, grid);
  ASSERT_THROWS_WITH(
      Error, g.execute(),
      "WebGPU kernel test_scale: a constant dispatch must run again (its params, grid "
      "or inputs changed), but a buffer it reads or writes was freed after load");
}

TEST(Constants, buffers_a_per_execute_dispatch_reads_or_that_are_kept_stay) {
  // a constant the input's dispatch also reads stays, and so does one in `keep`
  WebGPUGraph g(test_device());
  const ValueRef w = g.add_tensor(DType::Float32, {6});
  const ValueRef x = g.add_tensor(DType::Float32, {6});
  const ValueRef w2 = g.add_tensor(DType::Float32, {6});
  const ValueRef out = g.add_tensor(DType::Float32, {6});
  write(g, w, iota(6));
  g.mark_constant(w);
  g.add_node("test.scale.default", {w, g.add_double(2.0), w2});
  g.add_node("test.add_optional.default", {x, w, out});
  g.run_constant_dispatches();
  ASSERT_EQ(g.release_consumed_constants({}), 32u);  // w2 (24 bytes), a result no execute reads
  ASSERT_THROWS_WITH(Error, read(g, w2), "copy_out of value 2 (float32[6]): its buffer was freed");
  write(g, x, iota(6));
  g.execute();
  ASSERT_EQ(max_diff(read(g, out), iota(6, 0.0f, 2.0f)), 0.0f);

  ScaleThenAdd m(/*constant_weight=*/true);
  m.g.run_constant_dispatches();
  ASSERT_EQ(m.g.release_consumed_constants({m.w}), 0u);
  ASSERT_EQ(max_diff(read(m.g, m.w), iota(10, 1.0f)), 0.0f);
}

TEST(Constants, nothing_is_freed_before_the_constant_dispatches_ran) {
  ScaleThenAdd m(/*constant_weight=*/true);
  ASSERT_EQ(m.g.release_consumed_constants({}), 0u);
  m.run_and_check(1.0f, iota(10, 1.0f));
}

TEST(Constants, new_params_run_a_constant_dispatch_again) {
  ScaleDispatch s;
  auto& [g, w, w3, p, grid, id] = s;
  g.execute();
  ASSERT_EQ(max_diff(read(g, w3), iota(8, 0.0f, 3.0f)), 0.0f);
  g.update_dispatch(id, &p, sizeof p, grid);  // the same params: still fresh
  g.execute();
  ASSERT_EQ(g.kernel_runs()["test_scale"], 1u);
  p.alpha = -1.0f;
  g.update_dispatch(id, &p, sizeof p, grid);
  g.execute();
  g.execute();
  ASSERT_EQ(g.kernel_runs()["test_scale"], 2u);
  ASSERT_EQ(max_diff(read(g, w3), iota(8, 0.0f, -1.0f)), 0.0f);
}

TEST(Constants, a_buffer_two_dispatches_write_is_not_kept) {
  WebGPUGraph g(test_device());
  const ValueRef w = g.add_tensor(DType::Float32, {6});
  const ValueRef x = g.add_tensor(DType::Float32, {6});
  const ValueRef t = g.add_tensor(DType::Float32, {6});
  const ValueRef out = g.add_tensor(DType::Float32, {6});
  write(g, w, iota(6));
  g.mark_constant(w);
  g.add_node("test.scale.default", {w, g.add_double(2.0), t});  // t = 2w
  g.add_node("test.copy.default", {t, out});                    // out = 2w
  g.add_node("test.copy.default", {x, t});                      // t = x
  ASSERT_EQ(g.num_constant_dispatches(), 0u);
  for (float k : {1.0f, 7.0f}) {
    write(g, x, std::vector<float>(6, k));
    g.execute();
    ASSERT_EQ(max_diff(read(g, out), iota(6, 0.0f, 2.0f)), 0.0f);
    ASSERT_EQ(max_diff(read(g, t), std::vector<float>(6, k)), 0.0f);
  }
}

namespace {

// aten.convolution.default (the generated handler): 3x3, padding 1, with bias.
struct Conv {
  static constexpr int64_t B = 1, IC = 5, H = 7, W = 6, OC = 9;
  WebGPUGraph g{test_device()};
  ValueRef x = g.add_tensor(DType::Float32, {B, IC, H, W});
  ValueRef w = g.add_tensor(DType::Float32, {OC, IC, 3, 3});
  ValueRef b = g.add_tensor(DType::Float32, {OC});
  ValueRef out = g.add_tensor(DType::Float32, {B, OC, H, W});
  std::vector<float> weight = iota(OC * IC * 9, -1.0f, 0.01f);
  std::vector<float> bias = iota(OC, 0.5f, -0.25f);

  explicit Conv(bool constant_weight) {
    write(g, w, weight);
    write(g, b, bias);
    if (constant_weight) {
      g.mark_constant(w);
      g.mark_constant(b);
    }
    const ValueRef one = g.add_int_list({1, 1});
    g.add_node("aten.convolution.default", {x, w, b, one, one, one, g.add_bool(false),
                                            g.add_int_list({0, 0}), g.add_int(1), out});
  }

  std::vector<float> run(float phase) {
    std::vector<float> input(B * IC * H * W);
    for (size_t i = 0; i < input.size(); ++i) input[i] = std::sin(0.37f * i + phase);
    write(g, x, input);
    g.execute();
    std::vector<float> want(B * OC * H * W);
    for (int64_t oc = 0; oc < OC; ++oc)
      for (int64_t oy = 0; oy < H; ++oy)
        for (int64_t ox = 0; ox < W; ++ox) {
          double acc = bias[oc];
          for (int64_t ic = 0; ic < IC; ++ic)
            for (int64_t ky = 0; ky < 3; ++ky)
              for (int64_t kx = 0; kx < 3; ++kx) {
                const int64_t iy = oy + ky - 1, ix = ox + kx - 1;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                acc += double(input[(ic * H + iy) * W + ix]) *
                       weight[((oc * IC + ic) * 3 + ky) * 3 + kx];
              }
          want[(oc * H + oy) * W + ox] = static_cast<float>(acc);
        }
    const std::vector<float> got = read(g, out);
    EXPECT_LT(max_diff(got, want), 1e-4f);
    return got;
  }
};

}  // namespace

TEST(Constants, a_conv_packs_a_constant_weight_once_and_an_input_weight_every_execute) {
  Conv constant(/*constant_weight=*/true), input(/*constant_weight=*/false);
  // the weight pack, then whichever GEMM kernel the conv's routes pick
  const std::vector<std::string> kernels = constant.g.dispatch_kernels();
  ASSERT_EQ(kernels.size(), 2u);
  ASSERT_TRUE(kernels.front() == "conv2d_pack_weights");
  ASSERT_EQ(constant.g.num_constant_dispatches(), 1u);
  ASSERT_EQ(input.g.num_constant_dispatches(), 0u);
  for (float phase : {0.0f, 1.0f, 2.0f}) {
    ASSERT_TRUE(constant.run(phase) == input.run(phase));  // bit for bit
  }
  ASSERT_EQ(constant.g.kernel_runs()["conv2d_pack_weights"], 1u);
  ASSERT_EQ(constant.g.kernel_runs()[kernels.back()], 3u);
  ASSERT_EQ(input.g.kernel_runs()["conv2d_pack_weights"], 3u);
  ASSERT_EQ(input.g.kernel_runs()[kernels.back()], 3u);
}

TEST(Constants, a_conv_frees_its_raw_weight_once_packed) {
  // conv2d_gemm declares the raw weight (conv2d_gemm128 reads it) but never names it: the
  // runtime binds a dummy there, so only the pack reads the weight and it goes after load
  Conv constant(/*constant_weight=*/true), input(/*constant_weight=*/false);
  constant.g.run_constant_dispatches();
  // the weight: 9 x 5 x 3 x 3 floats, 1620 bytes in 16-byte units
  ASSERT_EQ(constant.g.release_consumed_constants({constant.out}), 1632u);
  for (float phase : {0.0f, 1.0f}) ASSERT_TRUE(constant.run(phase) == input.run(phase));
  ASSERT_EQ(constant.g.kernel_runs()["conv2d_pack_weights"], 1u);
}

TEST(Constants, linear_packs_a_constant_weight_to_k_by_n_and_frees_it) {
  constexpr int64_t M = 20, K = 12, N = 8;
  WebGPUGraph g{test_device()};
  const ValueRef x = g.add_tensor(DType::Float32, {M, K});
  const ValueRef w = g.add_tensor(DType::Float32, {N, K});
  const ValueRef out = g.add_tensor(DType::Float32, {M, N});
  const std::vector<float> weight = iota(N * K, -0.5f, 0.01f);
  write(g, w, weight);
  g.mark_constant(w);
  g.add_node("aten.linear.default", {x, w, g.add_null(), out});
  ASSERT_TRUE(g.dispatch_kernels().front() == "linear_pack_weight");
  g.run_constant_dispatches();
  ASSERT_EQ(g.release_consumed_constants({out}), uint64_t(N * K * 4));  // the [N, K] weight
  std::vector<float> input = iota(M * K, 1.0f, 0.25f);
  for (int run = 0; run < 2; ++run) {
    write(g, x, input);
    g.execute();
    std::vector<float> want(M * N);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += double(input[m * K + k]) * weight[n * K + k];
        want[m * N + n] = static_cast<float>(acc);
      }
    ASSERT_TRUE(max_diff(read(g, out), want) < 1e-4f);
    for (float& v : input) v = -v;
  }
  ASSERT_EQ(g.kernel_runs()["linear_pack_weight"], 1u);
}
