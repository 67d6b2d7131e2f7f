#include "vk_graph.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "memory_plan.h"
#include "vk_format.h"
#include "vk_fusion.h"

namespace webgpu_delegate::vk {
namespace {

constexpr uint64_t kNamedConstant = std::numeric_limits<uint64_t>::max();  // VkBytes.offset

class Builder {
 public:
  Builder(WebGPUGraph& graph, const uint8_t* blob, const Header& header, const vkgraph::VkGraph& fb,
          const NamedDataLookup& named_data, bool views_share_buffers, ExternalConstants* external)
      : graph_(graph),
        blob_(blob),
        header_(header),
        fb_(fb),
        named_data_(named_data),
        views_share_buffers_(views_share_buffers),
        external_(external) {}

  void build(std::vector<ValueRef>& inputs, std::vector<ValueRef>& outputs,
             std::vector<std::string>& ops) {
    if (fb_.shaders() && fb_.shaders()->size() > 0) {
      fail("the graph carries ", fb_.shaders()->size(),
           " custom shaders, which this delegate does not run");
    }
    calls_ = chain_calls(fb_, graph_.limits());
    check_handlers();
    plan_buffers();
    const auto* values = fb_.values();
    const uint32_t n = values ? values->size() : 0;
    refs_.assign(n, -1);
    for (uint32_t id = 0; id < n; ++id) refs_[id] = add_value(id, *values->Get(id));

    for (const ChainCall& call : calls_) {
      std::vector<ValueRef> args;
      for (int32_t a : call.args) args.push_back(ref(a, utils::message("node ", call.node)));
      if (!call.outputs.empty()) {
        std::vector<ValueRef> outputs;
        for (int32_t o : call.outputs)
          outputs.push_back(ref(o, utils::message("node ", call.node)));
        args.push_back(graph_.add_value_list(std::move(outputs)));
      }
      ops.push_back(call.name);
      try {
        if (call.name == "et_vk.prepack.default") {
          add_prepack(args);
        } else {
          graph_.add_node(call.name, args);
        }
      } catch (const Error& e) {
        fail("node ", call.node, " (", call.name, "): ", e.what());
      }
    }
    for (uint32_t id : ids(fb_.input_ids())) inputs.push_back(io_ref(id, "input"));
    for (uint32_t id : ids(fb_.output_ids())) {
      const ValueRef r = io_ref(id, "output");
      if (graph_.type_of(r) != ValueType::Tensor) {
        fail("output ", value_what(id), " is a ", value_type_name(graph_.type_of(r)),
             ", expected a tensor");
      }
      outputs.push_back(r);
    }
  }

 private:
  // Every operator must have a handler before anything is built: one error
  // names all of those that do not.
  void check_handlers() const {
    const OperatorRegistry& registry = OperatorRegistry::instance();
    std::map<std::string, std::vector<uint32_t>> missing;
    for (const ChainCall& call : calls_) {
      if (call.name.empty()) fail("node ", call.node, " has no operator name");
      if (!is_builtin_op(call.name) && !registry.has_op(call.name))
        missing[call.name].push_back(call.node);
    }
    if (missing.empty()) return;
    std::string list;
    for (const auto& [name, nodes] : missing) {
      list += (list.empty() ? "" : ", ") + name + " (node";
      list += nodes.size() > 1 ? "s" : "";
      for (size_t k = 0; k < nodes.size(); ++k) list += utils::message(k ? ", " : " ", nodes[k]);
      list += ")";
    }
    fail("no WebGPU handler for operator", missing.size() > 1 ? "s " : " ", list, "; ",
         registry.targets().size(),
         " targets are registered (write a spec: opgen new <op> --target <target>)");
  }

  // The buffer of each planned tensor (one with a memory object in ExecuTorch's plan). The
  // plan is made again here (memory_plan.h): ExecuTorch gives a view's output a buffer of
  // its own, and its copy would then run on every execute.
  void plan_buffers() {
    const auto* values = fb_.values();
    if (!values) return;
    const uint32_t n = values->size();
    PlanGraph graph;
    planned_index_.assign(n, kNotPlanned);
    for (uint32_t id = 0; id < n; ++id) {
      const auto* t = values->Get(id)->value_as_VkTensor();
      if (!t || t->constant_id() >= 0 || t->mem_obj_id() < 0) continue;
      planned_index_[id] = graph.bytes.size();
      graph.bytes.push_back(static_cast<uint64_t>(numel(dims(*t), id)) *
                            dtype_size(graph_dtype(t->datatype(), id)));
    }
    auto planned = [&](int64_t id) {
      return id >= 0 && id < static_cast<int64_t>(n) ? planned_index_[id] : kNotPlanned;
    };
    auto add_planned = [&](std::vector<size_t>& to, int64_t id) {
      if (planned(id) != kNotPlanned) to.push_back(planned(id));
    };
    for (uint32_t id : ids(fb_.input_ids())) add_planned(graph.inputs, id);
    for (uint32_t id : ids(fb_.output_ids())) add_planned(graph.outputs, id);

    const OperatorRegistry& registry = OperatorRegistry::instance();
    for (const ChainCall& call : calls_) {
      PlanNode& node = graph.nodes.emplace_back();
      node.aliasing = registry.has_op(call.name) ? registry.aliasing(call.name) : OpAliasing::None;
      for (int32_t o : call.outputs) add_planned(node.tensors, o);
      if (call.args.empty()) continue;
      for (int32_t a : call.args) {
        add_planned(node.tensors, a);
        const auto* list = a >= 0 && static_cast<uint32_t>(a) < n
                               ? values->Get(static_cast<uint32_t>(a))->value_as_ValueList()
                               : nullptr;
        if (list && list->items()) {
          for (int32_t item : *list->items()) add_planned(node.tensors, item);
        }
      }
      if (node.aliasing == OpAliasing::WritesInputs) {
        for (size_t a : registry.written_args(call.name)) {
          if (a < call.args.size()) add_planned(node.written, call.args[a]);
        }
      }
      const int32_t in = call.args.front(), out = call.args.back();
      if (node.aliasing == OpAliasing::OutputMayShareInput && views_share_buffers_ &&
          planned(in) != kNotPlanned && planned(out) != kNotPlanned &&
          values->Get(in)->value_as_VkTensor()->datatype() ==
              values->Get(out)->value_as_VkTensor()->datatype()) {
        node.input = planned(in);
        node.output = planned(out);
      }
    }
    plan_ = plan_memory(graph);
  }

  static std::vector<int64_t> dims(const vkgraph::VkTensor& t) {
    std::vector<int64_t> d;
    if (t.dims()) {
      for (uint32_t x : *t.dims()) d.push_back(x);
    }
    return d;
  }

  static int64_t numel(const std::vector<int64_t>& d, uint32_t id) {
    int64_t n = 1;
    for (int64_t x : d) {
      if (x != 0 && n > std::numeric_limits<int64_t>::max() / x)
        fail(value_what(id), ": too many elements");
      n *= x;
    }
    return n;
  }

  static std::vector<uint32_t> ids(const flatbuffers::Vector<uint32_t>* v) {
    return v ? std::vector<uint32_t>(v->begin(), v->end()) : std::vector<uint32_t>{};
  }

  ValueRef ref(int64_t id, const std::string& where) const {
    if (id < 0 || static_cast<size_t>(id) >= refs_.size() || refs_[id] < 0) {
      fail(where, ": refers to ", value_what(static_cast<uint32_t>(id)), ", which does not exist",
           (id >= 0 && static_cast<size_t>(id) < refs_.size() ? " yet" : ""), " (the graph has ",
           refs_.size(), " values)");
    }
    return refs_[id];
  }

  ValueRef io_ref(uint32_t id, const char* what) const {
    return ref(id, std::string("graph ") + what);
  }

  ValueRef add_value(uint32_t id, const vkgraph::VkValue& v) {
    switch (v.value_type()) {
      case vkgraph::GraphTypes_Null:
        return graph_.add_null();
      case vkgraph::GraphTypes_Int:
        return graph_.add_int(v.value_as_Int()->int_val());
      case vkgraph::GraphTypes_Double:
        return graph_.add_double(v.value_as_Double()->double_val());
      case vkgraph::GraphTypes_Bool:
        return graph_.add_bool(v.value_as_Bool()->bool_val());
      case vkgraph::GraphTypes_String: {
        const auto* s = v.value_as_String()->string_val();
        return graph_.add_string(s ? s->str() : std::string());
      }
      case vkgraph::GraphTypes_SymInt:
        return graph_.add_symint(v.value_as_SymInt()->value());
      case vkgraph::GraphTypes_IntList: {
        std::vector<int64_t> items = read_scalars<int64_t>(v.value_as_IntList()->items());
        // Every IntList is a shape, stride, padding, dim or index list; the GPU
        // works in 32 bits, and handlers do int64 arithmetic on these items, so a
        // value beyond int32 can only be hostile (and would overflow there).
        for (size_t k = 0; k < items.size(); ++k) {
          if (items[k] < std::numeric_limits<int32_t>::min() ||
              items[k] > std::numeric_limits<int32_t>::max()) {
            fail(value_what(id), ": IntList item ", k, " = ", items[k],
                 " is outside the int32 range");
          }
        }
        return graph_.add_int_list(std::move(items));
      }
      case vkgraph::GraphTypes_DoubleList: {
        return graph_.add_double_list(read_scalars<double>(v.value_as_DoubleList()->items()));
      }
      case vkgraph::GraphTypes_BoolList: {
        std::vector<bool> items;
        if (const auto* x = v.value_as_BoolList()->items()) {
          for (uint8_t b : *x) items.push_back(b != 0);
        }
        return graph_.add_bool_list(std::move(items));
      }
      case vkgraph::GraphTypes_ValueList: {
        std::vector<ValueRef> items;
        if (const auto* x = v.value_as_ValueList()->items()) {
          for (int32_t item : *x) items.push_back(ref(item, value_what(id) + " (ValueList)"));
        }
        return graph_.add_value_list(std::move(items));
      }
      case vkgraph::GraphTypes_VkTensor:
        return add_tensor(id, *v.value_as_VkTensor());
      default:
        fail(value_what(id), ": unknown value type ", static_cast<int>(v.value_type()));
    }
  }

  ValueRef add_tensor(uint32_t id, const vkgraph::VkTensor& t) {
    const DType dtype = graph_dtype(t.datatype(), id);
    std::vector<int64_t> d = dims(t);
    if (t.constant_id() >= 0) {
      const ValueRef r = graph_.add_tensor(dtype, d);
      load_constant(id, t, r);
      graph_.mark_constant(r);  // what only constants feed (a conv's weight pack) runs once
      return r;
    }
    if (planned_index_[id] != kNotPlanned) {
      const size_t buffer = plan_.buffer_of[planned_index_[id]];
      auto it = buffer_refs_.find(buffer);
      if (it == buffer_refs_.end()) {
        // One buffer per planned buffer, as bytes; its tensors are typed views.
        const int64_t bytes = static_cast<int64_t>(plan_.buffer_bytes[buffer]);
        it = buffer_refs_.emplace(buffer, graph_.add_tensor(DType::UInt8, {bytes})).first;
      }
      return graph_.add_tensor_view(it->second, std::move(d), dtype);
    }
    return graph_.add_tensor(dtype, std::move(d));
  }

  void load_constant(uint32_t id, const vkgraph::VkTensor& t, ValueRef r) {
    const auto* constants = fb_.constants();
    const uint32_t cid = static_cast<uint32_t>(t.constant_id());
    if (!constants || cid >= constants->size()) {
      fail(value_what(id), ": constant_id ", cid, " out of range (",
           constants ? constants->size() : 0, " constants)");
    }
    const auto* c = constants->Get(cid);
    const bool named = c->offset() == kNamedConstant;
    std::string key;
    if (named) {
      if (!c->named_key()) fail(value_what(id), ": named constant without a key");
      key = c->named_key()->str();
    } else if (c->offset() > header_.bytes_size || c->length() > header_.bytes_size - c->offset()) {
      fail(value_what(id), ": constant bytes [", c->offset(), ", +", c->length(),
           ") lie outside the constant segment (", header_.bytes_size, " bytes)");
    }
    auto check_named_size = [&](uint64_t held) {
      if (held < c->length()) {
        fail(value_what(id), ": named constant '", key, "' holds ", held,
             " bytes, the graph expects ", c->length());
      }
    };
    const Tensor& tensor = graph_.get_tensor(r);
    auto check_size = [&](uint64_t held) {
      if (held != tensor.nbytes()) {
        fail(value_what(id), ": constant holds ", held, " bytes, expected ", tensor.nbytes(),
             " for ", dtype_name(tensor.dtype), tensor.dims());
      }
    };
    const bool int64 = t.datatype() == vkgraph::VkDataType_INT64;
    std::vector<uint8_t> bytes;
    if (external_) {
      // written into the GPU buffer from where it lies, unless int64 (narrowed here)
      if (named) check_named_size(external_->named_size(key));
      const uint64_t offset = named ? 0 : c->offset();
      if (!int64) {
        check_size(c->length());
        if (c->length() > 0) external_->write(graph_, r, key, offset, c->length());
        return;
      }
      bytes = external_->read(key, offset, c->length());
    } else if (named) {
      bytes = named_data_(key);
      check_named_size(bytes.size());
      bytes.resize(c->length());
    } else {
      const uint8_t* p = blob_ + header_.bytes_offset + c->offset();
      bytes.assign(p, p + c->length());
    }
    if (int64) bytes = narrow_int64(bytes.data(), bytes.size(), id);
    check_size(bytes.size());
    if (!bytes.empty()) graph_.copy_in(r, bytes.data(), bytes.size());
  }

  // et_vk.prepack(constant, out): a copy recorded in the graph (add_copy).
  void add_prepack(const std::vector<ValueRef>& args) {
    if (args.size() != 2) {
      throw Error(utils::message("expected 2 arguments (constant, out), got ", args.size()));
    }
    const Tensor& src = graph_.get_tensor(args[0]);
    const Tensor& dst = graph_.get_tensor(args[1]);
    if (src.dtype != dst.dtype || src.numel() != dst.numel()) {
      throw Error(utils::message("out (", dtype_name(dst.dtype), dst.dims(),
                                 ") must match the constant (", dtype_name(src.dtype), src.dims(),
                                 ")"));
    }
    const uint64_t nbytes = (src.nbytes() + 3) / 4 * 4;  // buffers are padded to 4 bytes
    if (nbytes > 0) graph_.add_copy(args[0], args[1], nbytes);
  }

  WebGPUGraph& graph_;
  const uint8_t* blob_;
  Header header_;
  const vkgraph::VkGraph& fb_;
  const NamedDataLookup& named_data_;
  const bool views_share_buffers_;
  ExternalConstants* external_;        // null: the constants are in the blob or named_data_
  std::vector<ValueRef> refs_;         // VK00 value id -> graph value
  std::vector<size_t> planned_index_;  // VK00 value id -> planned tensor (or kNotPlanned)
  std::vector<ChainCall> calls_;       // the chain as built (vk_fusion.h)
  MemoryPlan plan_;
  std::map<size_t, ValueRef> buffer_refs_;  // planned buffer -> its UInt8 tensor
};

}  // namespace

std::string op_target(const std::string& name) {
  // The serializer writes an ATen operator the edge dialect left alone (scalar_tensor) by
  // its bare name, "scalar_tensor.default": it is the aten one; ExecuTorch's LLM custom
  // ops likewise ("sdpa_with_kv_cache.default": llama's); SymInt arithmetic by the Python
  // operator's name ("add": the ATen int op aten.add.int). codegen/et/vk_graph.py's twin.
  static const std::set<std::string> llama_ops = {"sdpa_with_kv_cache", "update_cache",
                                                  "custom_sdpa"};
  static const std::set<std::string> symint_operators = {"add", "sub", "mul", "floordiv"};
  if (symint_operators.count(name)) return "aten." + name + ".int";
  if (std::count(name.begin(), name.end(), '.') != 1) return name;
  const std::string op = name.substr(0, name.find('.'));
  return (llama_ops.count(op) ? "llama." : "aten.") + name;
}

bool is_builtin_op(const std::string& name) {
  return name == "et_vk.prepack.default";
}

LoadedGraph::LoadedGraph(Device& device, const uint8_t* data, size_t size,
                         const NamedDataLookup& named_data, bool views_share_buffers,
                         ExternalConstants* external)
    : graph_(device) {
  const Header h = parse_header(data, size);
  const uint8_t* fb_data = data + h.flatbuffer_offset;
  if (h.flatbuffer_size < 8) {  // root offset + file identifier
    fail("the VK00 flatbuffer is ", h.flatbuffer_size,
         " bytes, shorter than its 8-byte root offset and file identifier");
  }
  if (!vkgraph::VkGraphBufferHasIdentifier(fb_data)) {
    fail("the flatbuffer's file identifier is not VK00");
  }
  flatbuffers::Verifier verifier(fb_data, h.flatbuffer_size);
  if (!vkgraph::VerifyVkGraphBuffer(verifier)) fail("the VK00 flatbuffer does not verify");
  Builder(graph_, data, h, *vkgraph::GetVkGraph(fb_data), named_data, views_share_buffers, external)
      .build(inputs_, outputs_, ops_);
}

}  // namespace webgpu_delegate::vk
