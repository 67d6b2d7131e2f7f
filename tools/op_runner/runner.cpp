#include "runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/json.h"

namespace webgpu_delegate::runner {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void case_error(const json::Value& where, const std::string& what) {
  throw Error("case " + where.path() + ": " + what);
}

std::string read_text(const fs::path& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(std::string("cannot read ") + what + " " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

DType parse_dtype(const json::Value& v) {
  const std::string& name = v.as_string();
  for (DType d : {DType::Float32, DType::Int32, DType::Int64, DType::Bool, DType::Float16,
                  DType::UInt8, DType::Int8}) {
    if (name == dtype_name(d)) return d;
  }
  case_error(v, "unknown dtype \"" + name +
                    "\" (expected float32, int32, int64, bool, float16, uint8 or int8)");
}

std::vector<int64_t> int_list(const json::Value& v) {
  std::vector<int64_t> out;
  for (const auto& e : v.as_array()) out.push_back(e.as_int());
  return out;
}

// A JSON number, or "inf" / "-inf" / "nan" (JSON has no literals for them).
double double_value(const json::Value& v) {
  if (v.kind() == json::Value::Kind::String) {
    const std::string& s = v.as_string();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    case_error(v, "expected a number, \"inf\", \"-inf\" or \"nan\", got \"" + s + "\"");
  }
  return v.as_double();
}

ValueRef ref_value(const json::Value& v, size_t num_values) {
  const int64_t r = v.as_int();
  if (r < 0 || static_cast<size_t>(r) >= num_values) {
    case_error(v, "value ref " + std::to_string(r) + " out of range (the case has " +
                      std::to_string(num_values) + " values)");
  }
  return static_cast<ValueRef>(r);
}

class CaseRunner {
 public:
  CaseRunner(Device& device, const std::string& case_path, const std::string& out_dir)
      : graph_(device), base_dir_(fs::path(case_path).parent_path()), out_dir_(out_dir) {
    doc_ = json::parse(read_text(case_path, "case file"), case_path);
  }

  void run() {
    doc_.expect_keys({"target", "values", "args", "inputs", "outputs", "resize"});
    const std::string target = doc_.at("target").as_string();
    add_values(doc_.at("values"));
    const size_t n = graph_.num_values();
    std::vector<ValueRef> args;
    for (const auto& a : doc_.at("args").as_array()) args.push_back(ref_value(a, n));
    for (const auto& i : doc_.at("inputs").as_array()) {
      const ValueRef r = ref_value(i, n);
      if (!input_files_.count(r))
        case_error(i, "input value " + std::to_string(r) + " has no \"data\" file");
      inputs_.push_back(r);
    }
    for (const auto& [r, file] : input_files_) {
      if (std::find(inputs_.begin(), inputs_.end(), r) == inputs_.end()) {
        throw Error("case $.values[" + std::to_string(r) +
                    "]: has \"data\" but is not listed in $.inputs");
      }
    }
    for (const auto& o : doc_.at("outputs").as_array()) {
      const ValueRef r = ref_value(o, n);
      graph_.get_tensor(r);  // outputs are tensors
      outputs_.push_back(r);
    }

    graph_.add_node(target, args);
    for (ValueRef r : inputs_) {
      load_input(r, input_files_.at(r), doc_.at("values").as_array()[static_cast<size_t>(r)]);
    }
    graph_.execute();
    std::error_code ec;
    fs::create_directories(out_dir_, ec);
    if (ec)
      throw Error("cannot create the output directory " + out_dir_.string() + ": " + ec.message());
    record_run();

    if (const json::Value* steps = doc_.find("resize")) {
      for (const auto& step : steps->as_array()) resize_step(step);
    }
    write_manifest(target);
  }

 private:
  void add_values(const json::Value& values) {
    for (const auto& v : values.as_array()) {
      const std::string& type = v.at("type").as_string();
      const size_t index = graph_.num_values();
      ValueRef ref = -1;
      if (type == "Tensor") {
        v.expect_keys({"type", "dtype", "dims", "data", "view_of"});
        const std::vector<int64_t> dims = int_list(v.at("dims"));
        if (const json::Value* base = v.find("view_of")) {
          const ValueRef b = ref_value(*base, index);
          ref = graph_.add_tensor_view(b, dims);
          if (const json::Value* dt = v.find("dtype");
              dt && parse_dtype(*dt) != graph_.get_tensor(b).dtype) {
            case_error(*dt, "a view must have its base's dtype " +
                                std::string(dtype_name(graph_.get_tensor(b).dtype)));
          }
        } else {
          ref = graph_.add_tensor(parse_dtype(v.at("dtype")), dims);
        }
        if (const json::Value* data = v.find("data")) input_files_[ref] = data->as_string();
      } else if (type == "Null") {
        v.expect_keys({"type"});
        ref = graph_.add_null();
      } else if (type == "Int" || type == "SymInt" || type == "Double" || type == "Bool" ||
                 type == "String" || type == "IntList" || type == "DoubleList" ||
                 type == "BoolList" || type == "ValueList") {
        v.expect_keys({"type", "value"});
        const json::Value& x = v.at("value");
        if (type == "Int") ref = graph_.add_int(x.as_int());
        if (type == "SymInt") ref = graph_.add_symint(x.as_int());
        if (type == "Double") ref = graph_.add_double(double_value(x));
        if (type == "Bool") ref = graph_.add_bool(x.as_bool());
        if (type == "String") ref = graph_.add_string(x.as_string());
        if (type == "IntList") ref = graph_.add_int_list(int_list(x));
        if (type == "DoubleList") {
          std::vector<double> list;
          for (const auto& e : x.as_array()) list.push_back(double_value(e));
          ref = graph_.add_double_list(std::move(list));
        }
        if (type == "BoolList") {
          std::vector<bool> list;
          for (const auto& e : x.as_array()) list.push_back(e.as_bool());
          ref = graph_.add_bool_list(std::move(list));
        }
        if (type == "ValueList") {
          std::vector<ValueRef> list;
          for (const auto& e : x.as_array())
            list.push_back(ref_value(e, index));  // earlier values only
          ref = graph_.add_value_list(std::move(list));
        }
      } else {
        case_error(v.at("type"),
                   "unknown value type \"" + type +
                       "\" (expected Tensor, Null, Int, SymInt, Double, Bool, String, "
                       "IntList, DoubleList, BoolList or ValueList)");
      }
      if (static_cast<size_t>(ref) != index) throw Error("case: value table out of step");
    }
  }

  void load_input(ValueRef ref, const std::string& file, const json::Value& where) {
    const fs::path path = fs::path(file).is_absolute() ? fs::path(file) : base_dir_ / file;
    const std::string bytes = read_text(path, "input file");
    const Tensor& t = graph_.get_tensor(ref);
    if (bytes.size() != t.nbytes()) {
      case_error(where, "input value " + std::to_string(ref) + ": " + path.string() + " holds " +
                            std::to_string(bytes.size()) + " bytes, expected " +
                            std::to_string(t.nbytes()) + " for " + dtype_name(t.dtype) +
                            utils::format_value(t.dims()));
    }
    graph_.copy_in(ref, bytes.data(), bytes.size());
  }

  void resize_step(const json::Value& step) {
    step.expect_keys({"tensors", "symints"});
    const size_t n = graph_.num_values();
    if (const json::Value* symints = step.find("symints")) {
      for (const auto& s : symints->as_array()) {
        s.expect_keys({"ref", "value"});
        graph_.set_symint(ref_value(s.at("ref"), n), s.at("value").as_int());
      }
    }
    std::vector<std::pair<ValueRef, std::string>> reloads;
    if (const json::Value* tensors = step.find("tensors")) {
      for (const auto& t : tensors->as_array()) {
        t.expect_keys({"ref", "dims", "data"});
        const ValueRef r = ref_value(t.at("ref"), n);
        if (std::find(inputs_.begin(), inputs_.end(), r) == inputs_.end()) {
          case_error(t.at("ref"), "value " + std::to_string(r) + " is not an input");
        }
        graph_.set_input_dims(r, int_list(t.at("dims")));
        reloads.emplace_back(r, t.at("data").as_string());
      }
    }
    graph_.propagate_resize();
    for (const auto& [r, file] : reloads) load_input(r, file, step.at("tensors"));
    graph_.execute();
    record_run();
  }

  void record_run() {
    const size_t run = runs_.size();
    std::ostringstream s;
    s << "    {\"outputs\": [";
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const ValueRef r = outputs_[i];
      const Tensor& t = graph_.get_tensor(r);
      std::string bytes(t.nbytes(), '\0');
      graph_.copy_out(r, bytes.data(), bytes.size());
      const std::string name = "run" + std::to_string(run) + "_value" + std::to_string(r) + ".bin";
      std::ofstream out(out_dir_ / name, std::ios::binary);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out) throw Error("cannot write " + (out_dir_ / name).string());
      s << (i ? ", " : "") << "{\"ref\": " << r << ", \"dtype\": \"" << dtype_name(t.dtype)
        << "\", \"dims\": " << utils::format_value(t.dims()) << ", \"file\": " << json::quote(name)
        << "}";
    }
    s << "], \"kernels\": [";
    const std::vector<std::string> kernels = graph_.dispatch_kernels();
    for (size_t i = 0; i < kernels.size(); ++i) s << (i ? ", " : "") << json::quote(kernels[i]);
    s << "]}";
    runs_.push_back(s.str());
  }

  void write_manifest(const std::string& target) {
    std::ofstream out(out_dir_ / "manifest.json", std::ios::binary);
    out << "{\n  \"target\": " << json::quote(target)
        << ",\n  \"device\": " << json::quote(graph_.device().describe()) << ",\n  \"features\": [";
    const std::vector<std::string> features = graph_.device().feature_names();
    for (size_t i = 0; i < features.size(); ++i) out << (i ? ", " : "") << json::quote(features[i]);
    out << "],\n  \"runs\": [\n";
    for (size_t i = 0; i < runs_.size(); ++i)
      out << runs_[i] << (i + 1 < runs_.size() ? ",\n" : "\n");
    out << "  ]\n}\n";
    if (!out) throw Error("cannot write " + (out_dir_ / "manifest.json").string());
  }

  WebGPUGraph graph_;
  fs::path base_dir_;
  fs::path out_dir_;
  json::Value doc_;
  std::map<ValueRef, std::string> input_files_;
  std::vector<ValueRef> inputs_;
  std::vector<ValueRef> outputs_;
  std::vector<std::string> runs_;
};

}  // namespace

void run_case_file(Device& device, const std::string& case_path, const std::string& out_dir) {
  CaseRunner(device, case_path, out_dir).run();
}

}  // namespace webgpu_delegate::runner
