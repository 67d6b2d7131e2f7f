// The rule that decides which commands compute constants (src/constant_plan.h): no
// device needed.
#include <cstdint>

#include "constant_plan.h"
#include "throws.h"

using webgpu_delegate::BufferId;
using webgpu_delegate::CommandAccess;
using webgpu_delegate::plan_constant_commands;

namespace {

BufferId buffer(uintptr_t n) {
  return reinterpret_cast<BufferId>(n);
}

const BufferId C = buffer(1);  // a constant (a weight)
const BufferId I = buffer(2);  // a graph input
const BufferId S = buffer(3);  // an op's scratch
const BufferId O = buffer(4);  // an output
const BufferId T = buffer(5);  // a second scratch

CommandAccess access(std::vector<BufferId> reads, std::vector<BufferId> writes) {
  return CommandAccess{std::move(reads), std::move(writes), false};
}

using Plan = std::vector<bool>;

}  // namespace

TEST(ConstantPlan, a_weight_pack_is_constant_and_the_gemm_that_reads_the_input_is_not) {
  const auto plan = plan_constant_commands({access({C}, {S}), access({I, S}, {O})}, {C}, {I, C});
  ASSERT_TRUE(plan == (Plan{true, false}));
}

TEST(ConstantPlan, what_only_constant_commands_wrote_is_constant_too) {
  // et_vk.prepack's copy of a constant, then a pack of the copy
  const auto plan =
      plan_constant_commands({access({C}, {T}), access({T}, {S}), access({I, S}, {O})}, {C}, {});
  ASSERT_TRUE(plan == (Plan{true, true, false}));
}

TEST(ConstantPlan, nothing_is_constant_without_marked_constants) {
  ASSERT_TRUE(plan_constant_commands({access({C}, {S}), access({I, S}, {O})}, {}, {}) ==
              (Plan{false, false}));
}

TEST(ConstantPlan, a_command_that_reads_no_tensor_is_left_alone) {
  // (a fill: it depends on no constant, and a graph without constants must not change)
  ASSERT_TRUE(plan_constant_commands({access({}, {S})}, {C}, {}) == (Plan{false}));
}

TEST(ConstantPlan, a_command_that_also_reads_a_non_constant_is_not_constant) {
  ASSERT_TRUE(plan_constant_commands({access({C, I}, {S})}, {C}, {}) == (Plan{false}));
}

TEST(ConstantPlan, a_constant_that_a_command_writes_is_no_constant) {
  ASSERT_TRUE(plan_constant_commands({access({I}, {C}), access({C}, {S})}, {C}, {}) ==
              (Plan{false, false}));
}

TEST(ConstantPlan, a_buffer_another_command_also_writes_keeps_both_per_execute) {
  // two writers (e.g. views of one shared memory object)
  ASSERT_TRUE(plan_constant_commands({access({C}, {S}), access({I}, {S})}, {C}, {}) ==
              (Plan{false, false}));
  ASSERT_TRUE(plan_constant_commands({access({I}, {S}), access({C}, {S})}, {C}, {}) ==
              (Plan{false, false}));
}

TEST(ConstantPlan, a_buffer_an_earlier_command_reads_is_not_kept) {
  // running the second command once would change what the first one reads
  ASSERT_TRUE(plan_constant_commands({access({I, S}, {O}), access({C}, {S})}, {C}, {}) ==
              (Plan{false, false}));
}

TEST(ConstantPlan, a_buffer_the_host_writes_is_not_kept) {
  ASSERT_TRUE(plan_constant_commands({access({C}, {S})}, {C}, {S}) == (Plan{false}));
}

TEST(ConstantPlan, writing_a_constant_a_dummy_or_nothing_is_not_kept) {
  ASSERT_TRUE(plan_constant_commands({access({C}, {})}, {C}, {}) == (Plan{false}));
  CommandAccess dummy = access({C}, {S});
  dummy.writes_dummy = true;
  ASSERT_TRUE(plan_constant_commands({dummy}, {C}, {}) == (Plan{false}));
  const BufferId C2 = buffer(6);
  ASSERT_TRUE(plan_constant_commands({access({C}, {C2})}, {C, C2}, {}) == (Plan{false}));
}

TEST(ConstantPlan, a_command_after_a_non_constant_one_is_judged_on_its_own_reads) {
  // the gemm is per execute; a later pack of another weight is still constant, and
  // what reads the gemm's output is not
  const auto plan = plan_constant_commands(
      {access({C}, {S}), access({I, S}, {O}), access({C}, {T}), access({O, T}, {buffer(7)})}, {C},
      {I});
  ASSERT_TRUE(plan == (Plan{true, false, true, false}));
}
