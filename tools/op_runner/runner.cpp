#include "runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate::runner {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

std::string read_text(const fs::path& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(std::string("cannot read ") + what + " " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Strict JSON (no comments, no duplicate keys); errors name `source`.
json parse_json(const std::string& text, const std::string& source) {
  std::vector<std::set<std::string>> keys;  // per open object, the keys seen so far
  const json::parser_callback_t no_duplicates = [&](int, json::parse_event_t event, json& v) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.back().insert(v.get<std::string>()).second) {
      throw Error(utils::message("JSON ", source, ": duplicate key ", v.dump()));
    }
    return true;
  };
  try {
    return json::parse(text, no_duplicates);
  } catch (const json::exception& e) {
    throw Error(utils::message("JSON ", source, ": ", e.what()));
  }
}

const char* kind_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

// A value of the case document and its path ($.values[2].dims): every accessor error
// names the value, what was expected and what was found.
class Node {
 public:
  Node(const json& value, std::string path) : value_(&value), path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  bool is_string() const { return value_->is_string(); }

  bool as_bool() const {
    if (!value_->is_boolean()) kind_error("a boolean");
    return value_->get<bool>();
  }
  double as_double() const {
    if (!value_->is_number()) kind_error("a number");
    return value_->get<double>();
  }
  int64_t as_int() const {
    if (!value_->is_number()) kind_error("an integer");
    if (value_->is_number_float()) {
      throw Error(utils::message("JSON ", path_, ": expected an integer, got ", value_->dump()));
    }
    if (value_->is_number_unsigned() &&
        value_->get<uint64_t>() > uint64_t{std::numeric_limits<int64_t>::max()}) {
      throw Error(utils::message("JSON ", path_, ": integer out of the int64 range"));
    }
    return value_->get<int64_t>();
  }
  const std::string& as_string() const {
    if (!value_->is_string()) kind_error("a string");
    return value_->get_ref<const std::string&>();
  }
  std::vector<Node> items() const {
    if (!value_->is_array()) kind_error("an array");
    std::vector<Node> out;
    for (size_t i = 0; i < value_->size(); ++i) {
      out.emplace_back((*value_)[i], utils::message(path_, "[", i, "]"));
    }
    return out;
  }
  std::optional<Node> find(const std::string& key) const {
    if (!value_->is_object()) kind_error("an object");
    const auto it = value_->find(key);
    if (it == value_->end()) return std::nullopt;
    return Node(*it, utils::message(path_, ".", key));
  }
  Node at(const std::string& key) const {
    std::optional<Node> v = find(key);
    if (!v) throw Error(utils::message("JSON ", path_, ": missing key \"", key, "\""));
    return *v;
  }
  // Error naming the first key that is not in `allowed`.
  void expect_keys(std::initializer_list<const char*> allowed) const {
    if (!value_->is_object()) kind_error("an object");
    for (const auto& item : value_->items()) {
      // a structured binding cannot be captured by a lambda in C++17 (clang rejects it)
      const std::string& key = item.key();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        std::string names;
        for (const char* a : allowed) names += utils::message(names.empty() ? "" : ", ", a);
        throw Error(
            utils::message("JSON ", path_, ": unknown key \"", key, "\" (allowed: ", names, ")"));
      }
    }
  }

 private:
  [[noreturn]] void kind_error(const char* expected) const {
    throw Error(
        utils::message("JSON ", path_, ": expected ", expected, ", got ", kind_name(*value_)));
  }

  const json* value_;
  std::string path_;
};

[[noreturn]] void case_error(const Node& where, const std::string& what) {
  throw Error(utils::message("case ", where.path(), ": ", what));
}

DType parse_dtype(const Node& v) {
  const std::string& name = v.as_string();
  for (DType d :
       {DType::Float32, DType::Int32, DType::Int64, DType::Bool, DType::Float16, DType::UInt8,
        DType::Int8}) {
    if (name == dtype_name(d)) return d;
  }
  case_error(v, utils::message("unknown dtype \"", name,
                               "\" (expected float32, int32, int64, bool, float16, uint8 or ",
                               "int8)"));
}

std::vector<int64_t> int_list(const Node& v) {
  std::vector<int64_t> out;
  for (const Node& e : v.items()) out.push_back(e.as_int());
  return out;
}

// A JSON number, or "inf" / "-inf" / "nan" (JSON has no literals for them).
double double_value(const Node& v) {
  if (v.is_string()) {
    const std::string& s = v.as_string();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    case_error(v,
               utils::message("expected a number, \"inf\", \"-inf\" or \"nan\", got \"", s, "\""));
  }
  return v.as_double();
}

ValueRef ref_value(const Node& v, size_t num_values) {
  const int64_t r = v.as_int();
  if (r < 0 || static_cast<size_t>(r) >= num_values) {
    case_error(
        v, utils::message("value ref ", r, " out of range (the case has ", num_values, " values)"));
  }
  return static_cast<ValueRef>(r);
}

class CaseRunner {
 public:
  CaseRunner(Device& device, const std::string& case_path, const std::string& out_dir)
      : graph_(device),
        base_dir_(fs::path(case_path).parent_path()),
        out_dir_(out_dir),
        doc_(parse_json(read_text(case_path, "case file"), case_path)) {}

  void run() {
    const Node doc(doc_, "$");
    doc.expect_keys({"target", "values", "args", "inputs", "outputs", "resize"});
    const std::string target = doc.at("target").as_string();
    const std::vector<Node> values = doc.at("values").items();
    add_values(values);
    const size_t n = graph_.num_values();
    std::vector<ValueRef> args;
    for (const Node& a : doc.at("args").items()) args.push_back(ref_value(a, n));
    for (const Node& i : doc.at("inputs").items()) {
      const ValueRef r = ref_value(i, n);
      if (!input_files_.count(r)) {
        case_error(i, utils::message("input value ", r, " has no \"data\" file"));
      }
      inputs_.push_back(r);
    }
    for (const auto& [r, file] : input_files_) {
      if (std::find(inputs_.begin(), inputs_.end(), r) == inputs_.end()) {
        throw Error(
            utils::message("case $.values[", r, "]: has \"data\" but is not listed in $.inputs"));
      }
    }
    for (const Node& o : doc.at("outputs").items()) {
      const ValueRef r = ref_value(o, n);
      if (graph_.type_of(r) != ValueType::SymInt) graph_.get_tensor(r);  // or a tensor
      outputs_.push_back(r);
    }

    graph_.add_node(target, args);
    for (ValueRef r : inputs_) load_input(r, input_files_.at(r), values[static_cast<size_t>(r)]);
    graph_.execute();
    std::error_code ec;
    fs::create_directories(out_dir_, ec);
    if (ec) {
      throw Error(utils::message("cannot create the output directory ", out_dir_.string(), ": ",
                                 ec.message()));
    }
    record_run();

    if (const std::optional<Node> steps = doc.find("resize")) {
      for (const Node& step : steps->items()) resize_step(step);
    }
    write_manifest(target);
  }

 private:
  void add_values(const std::vector<Node>& values) {
    for (const Node& v : values) {
      const size_t index = graph_.num_values();
      if (add_value(v, index) != static_cast<ValueRef>(index)) {
        throw Error("case: value table out of step");
      }
    }
  }

  ValueRef add_value(const Node& v, size_t index) {
    static constexpr const char* kTypes[] = {"Tensor",     "Null",     "Int",      "SymInt",
                                             "Double",     "Bool",     "String",   "IntList",
                                             "DoubleList", "BoolList", "ValueList"};
    const std::string& type = v.at("type").as_string();
    if (std::find(std::begin(kTypes), std::end(kTypes), type) == std::end(kTypes)) {
      case_error(v.at("type"), utils::message("unknown value type \"", type,
                                              "\" (expected Tensor, Null, Int, SymInt, Double, "
                                              "Bool, String, IntList, DoubleList, BoolList or "
                                              "ValueList)"));
    }
    if (type == "Tensor") return add_tensor(v, index);
    if (type == "Null") {
      v.expect_keys({"type"});
      return graph_.add_null();
    }
    v.expect_keys({"type", "value"});
    const Node x = v.at("value");
    if (type == "Int") return graph_.add_int(x.as_int());
    if (type == "SymInt") return graph_.add_symint(x.as_int());
    if (type == "Double") return graph_.add_double(double_value(x));
    if (type == "Bool") return graph_.add_bool(x.as_bool());
    if (type == "String") return graph_.add_string(x.as_string());
    if (type == "IntList") return graph_.add_int_list(int_list(x));
    if (type == "DoubleList") {
      std::vector<double> list;
      for (const Node& e : x.items()) list.push_back(double_value(e));
      return graph_.add_double_list(std::move(list));
    }
    if (type == "BoolList") {
      std::vector<bool> list;
      for (const Node& e : x.items()) list.push_back(e.as_bool());
      return graph_.add_bool_list(std::move(list));
    }
    std::vector<ValueRef> list;                                           // ValueList
    for (const Node& e : x.items()) list.push_back(ref_value(e, index));  // earlier values only
    return graph_.add_value_list(std::move(list));
  }

  ValueRef add_tensor(const Node& v, size_t index) {
    v.expect_keys({"type", "dtype", "dims", "data", "view_of"});
    const std::vector<int64_t> dims = int_list(v.at("dims"));
    ValueRef ref = -1;
    if (const std::optional<Node> base = v.find("view_of")) {
      const ValueRef b = ref_value(*base, index);
      ref = graph_.add_tensor_view(b, dims);
      const DType base_dtype = graph_.get_tensor(b).dtype;
      if (const std::optional<Node> dt = v.find("dtype"); dt && parse_dtype(*dt) != base_dtype) {
        case_error(*dt,
                   utils::message("a view must have its base's dtype ", dtype_name(base_dtype)));
      }
    } else {
      ref = graph_.add_tensor(parse_dtype(v.at("dtype")), dims);
    }
    if (const std::optional<Node> data = v.find("data")) input_files_[ref] = data->as_string();
    return ref;
  }

  void load_input(ValueRef ref, const std::string& file, const Node& where) {
    const fs::path path = fs::path(file).is_absolute() ? fs::path(file) : base_dir_ / file;
    const std::string bytes = read_text(path, "input file");
    const Tensor& t = graph_.get_tensor(ref);
    if (bytes.size() != t.nbytes()) {
      case_error(where, utils::message("input value ", ref, ": ", path.string(), " holds ",
                                       bytes.size(), " bytes, expected ", t.nbytes(), " for ",
                                       dtype_name(t.dtype), t.dims()));
    }
    graph_.copy_in(ref, bytes.data(), bytes.size());
  }

  void resize_step(const Node& step) {
    step.expect_keys({"tensors", "symints"});
    const size_t n = graph_.num_values();
    if (const std::optional<Node> symints = step.find("symints")) {
      for (const Node& s : symints->items()) {
        s.expect_keys({"ref", "value"});
        graph_.set_symint(ref_value(s.at("ref"), n), s.at("value").as_int());
      }
    }
    std::vector<std::pair<ValueRef, std::string>> reloads;
    const std::optional<Node> tensors = step.find("tensors");
    if (tensors) {
      for (const Node& t : tensors->items()) {
        t.expect_keys({"ref", "dims", "data"});
        const ValueRef r = ref_value(t.at("ref"), n);
        if (std::find(inputs_.begin(), inputs_.end(), r) == inputs_.end()) {
          case_error(t.at("ref"), utils::message("value ", r, " is not an input"));
        }
        graph_.set_input_dims(r, int_list(t.at("dims")));
        reloads.emplace_back(r, t.at("data").as_string());
      }
    }
    graph_.propagate_resize();
    for (const auto& [r, file] : reloads) load_input(r, file, *tensors);
    graph_.execute();
    record_run();
  }

  // Each output's live bytes into run<k>_value<ref>.bin, and the run's manifest entry.
  void record_run() {
    const size_t run = runs_.size();
    json outputs = json::array();
    for (ValueRef r : outputs_) {
      if (graph_.type_of(r) == ValueType::SymInt) {  // an op that computes a SymInt
        outputs.push_back({{"ref", r}, {"symint", graph_.get_symint(r)}});
        continue;
      }
      const Tensor& t = graph_.get_tensor(r);
      std::string bytes(t.nbytes(), '\0');
      graph_.copy_out(r, bytes.data(), bytes.size());
      const std::string name = utils::message("run", run, "_value", r, ".bin");
      std::ofstream out(out_dir_ / name, std::ios::binary);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out) throw Error(utils::message("cannot write ", (out_dir_ / name).string()));
      outputs.push_back(
          {{"ref", r}, {"dtype", dtype_name(t.dtype)}, {"dims", t.dims()}, {"file", name}});
    }
    runs_.push_back({{"outputs", std::move(outputs)}, {"kernels", graph_.dispatch_kernels()}});
  }

  void write_manifest(const std::string& target) {
    const json manifest = {{"target", target},
                           {"device", graph_.device().describe()},
                           {"features", graph_.device().feature_names()},
                           {"runs", runs_}};
    std::ofstream out(out_dir_ / "manifest.json", std::ios::binary);
    out << manifest.dump(2) << "\n";
    if (!out) throw Error(utils::message("cannot write ", (out_dir_ / "manifest.json").string()));
  }

  WebGPUGraph graph_;
  fs::path base_dir_;
  fs::path out_dir_;
  json doc_;
  std::map<ValueRef, std::string> input_files_;
  std::vector<ValueRef> inputs_;
  std::vector<ValueRef> outputs_;
  json runs_ = json::array();
};

}  // namespace

void run_case_file(Device& device, const std::string& case_path, const std::string& out_dir) {
  CaseRunner(device, case_path, out_dir).run();
}

}  // namespace webgpu_delegate::runner
