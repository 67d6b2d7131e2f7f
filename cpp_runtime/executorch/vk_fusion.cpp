#include "vk_fusion.h"

#include <algorithm>
#include <map>
#include <optional>

#include "schema_generated.h"
#include "vk_graph.h"

namespace webgpu_delegate::vk {
namespace {

constexpr const char* kSigmoid = "aten.sigmoid.default";
constexpr const char* kMul = "aten.mul.Tensor";
constexpr const char* kSiluMul = "webgpu.silu_mul.default";
constexpr const char* kAdd = "aten.add.Tensor";
constexpr const char* kRmsNorm = "et_vk.rms_norm.default";
constexpr const char* kAddRmsNorm = "webgpu.add_rms_norm.default";
constexpr const char* kLinearQ4 = "et_vk.linear_q4gsw.default";
constexpr const char* kLinearQ4Qkv = "webgpu.linear_q4gsw_qkv.default";
constexpr const char* kLinearQ4SiluMul = "webgpu.linear_q4gsw_silu_mul.default";
constexpr const char* kViewCopy = "aten.view_copy.default";

// The calls of the serialized chain, in order.
std::vector<ChainCall> read_chain(const vkgraph::VkGraph& graph) {
  std::vector<ChainCall> calls;
  const auto* chain = graph.chain();
  for (uint32_t i = 0; chain && i < chain->size(); ++i) {
    const auto* call = chain->Get(i);
    ChainCall& c = calls.emplace_back();
    c.node = i;
    c.name = call->name() ? op_target(call->name()->str()) : std::string();
    if (call->args()) c.args.assign(call->args()->begin(), call->args()->end());
  }
  return calls;
}

// One rewriting pass over a chain: who writes and who names each value, then the rules.
// A position is an index into calls_ (ChainCall::node stays the serialized entry's).
class Chain {
 public:
  Chain(const vkgraph::VkGraph& graph, const Limits& limits, std::vector<ChainCall> calls)
      : graph_(graph), limits_(limits), calls_(std::move(calls)) {
    for (uint32_t i = 0; i < calls_.size(); ++i) {
      const ChainCall& c = calls_[i];
      for (int32_t a : c.args) count_use(a);
      for (int32_t o : c.outputs) count_use(o);
      if (!c.args.empty() && c.outputs.empty()) producer_[c.args.back()] = i;
      for (int32_t o : c.outputs) producer_[o] = i;
    }
    if (graph.output_ids()) {
      for (uint32_t id : *graph.output_ids()) ++uses_[static_cast<int32_t>(id)];
    }
  }

  // The SiLU gate, add + RMS norm and q, k, v rules.
  std::vector<ChainCall> fused() {
    std::vector<bool> dropped(calls_.size(), false);
    for (ChainCall& c : calls_) {
      if (dropped[position(&c)]) continue;  // a later part of a pattern already rewritten
      if (auto silu = silu_mul(c)) {
        dropped[silu->sigmoid] = dropped[silu->first_mul] = true;
        c = ChainCall{c.node, kSiluMul, {silu->gate, silu->up, c.args.back()}, {}};
      } else if (auto kv = k_and_v_after(c)) {
        const std::vector<int32_t>&k = calls_[kv->first].args, &v = calls_[kv->second].args;
        dropped[kv->first] = dropped[kv->second] = true;
        // linear_q4gsw's args: self, weights, weight_scales, group_size, bias, out
        c = ChainCall{c.node,
                      kLinearQ4Qkv,
                      {c.args[0], c.args[1], c.args[2], k[1], k[2], v[1], v[2], c.args[3]},
                      {c.args[5], k[5], v[5]}};
      } else if (auto add = add_before_rms_norm(c)) {
        const std::vector<int32_t>& a = calls_[*add].args;  // x, residual, alpha, sum
        dropped[*add] = true;
        c = ChainCall{c.node, kAddRmsNorm, {a[0], a[1], c.args[1], c.args[2]}, {a[3], c.args[3]}};
      }
    }
    return kept(dropped);
  }

  // The gate and up projections of each SiLU-gated product `fused` made (the uses it
  // counts are the fused chain's: the gate's sigmoid and first mul are gone).
  std::vector<ChainCall> fused_mlp() {
    std::vector<bool> dropped(calls_.size(), false);
    for (ChainCall& c : calls_) {
      if (dropped[position(&c)]) continue;
      if (auto mlp = gate_and_up(c)) {
        for (uint32_t d : mlp->dropped) dropped[d] = true;
        c = ChainCall{c.node, kLinearQ4SiluMul, mlp->args, {}};
      }
    }
    return kept(dropped);
  }

 private:
  struct SiluMul {
    uint32_t sigmoid, first_mul;
    int32_t gate, up;
  };
  struct GateUp {
    std::vector<uint32_t> dropped;  // the two linears and the views of their outputs
    std::vector<int32_t> args;      // the fused call's
  };

  std::vector<ChainCall> kept(const std::vector<bool>& dropped) {
    std::vector<ChainCall> out;
    for (size_t i = 0; i < calls_.size(); ++i) {
      if (!dropped[i]) out.push_back(std::move(calls_[i]));
    }
    return out;
  }

  uint32_t position(const ChainCall* c) const { return static_cast<uint32_t>(c - calls_.data()); }

  // `c` as the last mul of a SiLU-gated product, when it is one.
  std::optional<SiluMul> silu_mul(const ChainCall& c) const {
    if (c.name != kMul || c.args.size() != 3) return std::nullopt;
    for (int side = 0; side < 2; ++side) {
      const int32_t t = c.args[side], up = c.args[1 - side];
      const ChainCall* first = produced_by(t, kMul, 3);
      if (!first || uses(t) != 2) continue;
      for (int s_side = 0; s_side < 2; ++s_side) {
        const int32_t s = first->args[s_side], gate = first->args[1 - s_side];
        const ChainCall* sigmoid = produced_by(s, kSigmoid, 2);
        if (!sigmoid || uses(s) != 2 || sigmoid->args[0] != gate) continue;
        if (!same_tensor_type({gate, s, t, up, c.args.back()})) continue;
        const uint32_t at_sigmoid = position(sigmoid), at_first = position(first);
        if (named_between(gate, at_sigmoid, position(&c), at_first)) continue;
        return SiluMul{at_sigmoid, at_first, gate, up};
      }
    }
    return std::nullopt;
  }

  // When `c` is the first of three bias-free 4-bit linears of one input with one group
  // size (an attention block's q, k and v projections), the other two. The fused call
  // runs at `c`'s place, so their weights must exist there and nothing between may
  // name the input (but the middle linear).
  std::optional<std::pair<uint32_t, uint32_t>> k_and_v_after(const ChainCall& c) const {
    if (!bias_free_linear(c) || limits_.max_storage_buffers_per_shader_stage < kQkvStorageBuffers)
      return std::nullopt;
    const int32_t x = c.args[0];
    const uint32_t at = position(&c);
    std::vector<uint32_t> found;
    for (uint32_t i = at + 1; i < calls_.size() && found.size() < 2; ++i) {
      const ChainCall& d = calls_[i];
      if (!bias_free_linear(d) || d.args[0] != x) continue;
      if (!same_int(d.args[3], c.args[3]) || !made_before(d.args[1], at) ||
          !made_before(d.args[2], at))
        return std::nullopt;
      found.push_back(i);
    }
    if (found.size() != 2 || named_between(x, at, found[1], found[0])) return std::nullopt;
    return std::make_pair(found[0], found[1]);
  }

  bool bias_free_linear(const ChainCall& c) const {
    if (c.name != kLinearQ4 || c.args.size() != 6) return false;
    const vkgraph::VkValue* bias = value(c.args[4]);
    return bias && bias->value_type() == vkgraph::GraphTypes_Null;
  }

  // Whether `id` is not written by a call at or after position `at` (a constant, or made
  // earlier).
  bool made_before(int32_t id, uint32_t at) const {
    const auto it = producer_.find(id);
    return it == producer_.end() || it->second < at;
  }

  bool same_int(int32_t a, int32_t b) const {
    if (a == b) return true;
    const auto *va = value(a), *vb = value(b);
    const auto *ia = va ? va->value_as_Int() : nullptr, *ib = vb ? vb->value_as_Int() : nullptr;
    return ia && ib && ia->int_val() == ib->int_val();
  }

  // When `c` is a silu_mul of two bias-free 4-bit linears of one input with one group size
  // (each output read only there, directly or through an identity view_copy): the call of
  // linear_q4gsw_silu_mul that replaces them, at `c`'s place (the input must hold the
  // same value there: nothing between names it).
  std::optional<GateUp> gate_and_up(const ChainCall& c) const {
    if (c.name != kSiluMul || c.args.size() != 3) return std::nullopt;
    GateUp fused;
    std::vector<const ChainCall*> linears;
    for (int side = 0; side < 2; ++side) {
      int32_t t = c.args[side];
      if (const ChainCall* view = produced_by(t, kViewCopy, 3)) {
        if (uses(t) != 2 || !same_tensor_type({view->args[0], t})) return std::nullopt;
        fused.dropped.push_back(position(view));
        t = view->args[0];
      }
      const ChainCall* linear = produced_by(t, kLinearQ4, 6);
      if (!linear || !bias_free_linear(*linear) || uses(t) != 2) return std::nullopt;
      fused.dropped.push_back(position(linear));
      linears.push_back(linear);
    }
    const ChainCall &gate = *linears[0], &up = *linears[1];
    const int32_t x = gate.args[0];
    const uint32_t at = position(&c), first = std::min(position(&gate), position(&up));
    if (up.args[0] != x || !same_int(gate.args[3], up.args[3]) ||
        !same_tensor_type({gate.args[5], up.args[5], c.args[2]}) ||
        named_between(x, first, at, std::max(position(&gate), position(&up))))
      return std::nullopt;
    fused.args = {x, gate.args[1], gate.args[2], up.args[1], up.args[2], gate.args[3], c.args[2]};
    return fused;
  }

  // The residual add whose sum `c` normalizes, when `c` is an RMS norm of one:
  // add(x, residual, 1) -> sum; rms_norm(sum, weight, eps) -> out, with nothing between
  // them reading sum (the fused call computes it at the norm's place).
  std::optional<uint32_t> add_before_rms_norm(const ChainCall& c) const {
    if (c.name != kRmsNorm || c.args.size() != 4) return std::nullopt;
    const int32_t sum = c.args[0];
    const ChainCall* add = produced_by(sum, kAdd, 4);
    if (!add || !is_one(add->args[2]) || !same_tensor_type({add->args[0], add->args[1], sum}))
      return std::nullopt;
    if (named_between(sum, position(add), position(&c))) return std::nullopt;
    return position(add);
  }

  // Whether a call after `from` and before `to` (but `except`) names `id`: the fused call
  // reads `id` at `to`, so nothing in between may write it (or read what it would hold).
  bool named_between(int32_t id, uint32_t from, uint32_t to, uint32_t except = UINT32_MAX) const {
    for (uint32_t i = from + 1; i < to; ++i) {
      if (i != except && names(calls_[i], id)) return true;
    }
    return false;
  }

  bool names(const ChainCall& c, int32_t id) const {
    for (int32_t a : c.args) {
      if (a == id) return true;
      const auto* list = value(a) ? value(a)->value_as_ValueList() : nullptr;
      if (list && list->items()) {
        for (int32_t item : *list->items()) {
          if (item == id) return true;
        }
      }
    }
    return false;
  }

  bool is_one(int32_t id) const {
    const vkgraph::VkValue* v = value(id);
    if (!v) return false;
    if (const auto* i = v->value_as_Int()) return i->int_val() == 1;
    if (const auto* d = v->value_as_Double()) return d->double_val() == 1.0;
    return false;
  }

  // The call that writes `id` when it is a call of `name` with `arity` args.
  const ChainCall* produced_by(int32_t id, const char* name, size_t arity) const {
    const auto it = producer_.find(id);
    if (it == producer_.end()) return nullptr;
    const ChainCall& c = calls_[it->second];
    return c.name == name && c.args.size() == arity ? &c : nullptr;
  }

  // How many chain args and graph outputs name `id` (its producer's output included).
  int uses(int32_t id) const {
    const auto it = uses_.find(id);
    return it == uses_.end() ? 0 : it->second;
  }

  void count_use(int32_t id) {
    ++uses_[id];
    const auto* list = value(id) ? value(id)->value_as_ValueList() : nullptr;
    if (list && list->items()) {
      for (int32_t item : *list->items()) ++uses_[item];
    }
  }

  const vkgraph::VkValue* value(int32_t id) const {
    const auto* values = graph_.values();
    return values && id >= 0 && static_cast<uint32_t>(id) < values->size()
               ? values->Get(static_cast<uint32_t>(id))
               : nullptr;
  }

  // Whether every id is a tensor with the first one's dtype and dims.
  bool same_tensor_type(std::initializer_list<int32_t> ids) const {
    const vkgraph::VkTensor* first = nullptr;
    for (int32_t id : ids) {
      const auto* t = value(id) ? value(id)->value_as_VkTensor() : nullptr;
      if (!t || !t->dims()) return false;
      if (!first) {
        first = t;
        continue;
      }
      if (t->datatype() != first->datatype() || t->dims()->size() != first->dims()->size())
        return false;
      for (uint32_t d = 0; d < t->dims()->size(); ++d) {
        if (t->dims()->Get(d) != first->dims()->Get(d)) return false;
      }
    }
    return true;
  }

  const vkgraph::VkGraph& graph_;
  const Limits& limits_;
  std::vector<ChainCall> calls_;
  std::map<int32_t, uint32_t> producer_;  // value id -> the call that writes it
  std::map<int32_t, int> uses_;
};

}  // namespace

std::vector<ChainCall> chain_calls(const vkgraph::VkGraph& graph, const Limits& limits) {
  std::vector<ChainCall> once = Chain(graph, limits, read_chain(graph)).fused();
  return Chain(graph, limits, std::move(once)).fused_mlp();
}

}  // namespace webgpu_delegate::vk
