// The op runner's case format, run in-process against the fixture ops.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

#include "device_fixture.h"
#include "runner.h"
#include "throws.h"

using namespace webgpu_delegate;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A per-process scratch folder under the temp dir, removed at exit.
struct ScratchRoot {
  fs::path path =
      fs::temp_directory_path() / ("webgpu_op_runner_test_" + std::to_string(::getpid()));
  ~ScratchRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

fs::path scratch(const std::string& name) {
  static ScratchRoot root;
  const fs::path dir = root.path / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

void write_floats(const fs::path& p, const std::vector<float>& v) {
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(v.data()),
             static_cast<std::streamsize>(v.size() * sizeof(float)));
}

std::vector<float> read_floats(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(OpRunner, runs_a_case_with_a_resize_step) {
  const fs::path dir = scratch("scale");
  write_floats(dir / "x.bin", {1, 2, 3, 4, 5, 6});
  write_floats(dir / "x_small.bin", {10, 20, 30});
  write_file(dir / "case.json", R"({
    "target": "test.scale_bias.default",
    "values": [
      {"type": "Tensor", "dtype": "float32", "dims": [2, 3], "data": "x.bin"},
      {"type": "Int", "value": 2},
      {"type": "Double", "value": 0.5},
      {"type": "Tensor", "dtype": "float32", "dims": [2, 3]}
    ],
    "args": [0, 1, 2, 3],
    "inputs": [0],
    "outputs": [3],
    "resize": [{"tensors": [{"ref": 0, "dims": [1, 3], "data": "x_small.bin"}]}]
  })");
  runner::run_case_file(test_device(), (dir / "case.json").string(), (dir / "out").string());
  const json m = json::parse(read_text(dir / "out" / "manifest.json"));
  ASSERT_EQ(m.at("target"), "test.scale_bias.default");
  const json& runs = m.at("runs");
  ASSERT_EQ(runs.size(), 2u);
  const json& o0 = runs[0].at("outputs").at(0);
  ASSERT_EQ(o0.at("ref"), 3);
  ASSERT_EQ(o0.at("dtype"), "float32");
  ASSERT_EQ(o0.at("dims"), json({2, 3}));
  ASSERT_EQ(read_floats(dir / "out" / o0.at("file").get<std::string>()),
            (std::vector<float>{2.5f, 4.5f, 6.5f, 8.5f, 10.5f, 12.5f}));
  ASSERT_EQ(runs[0].at("kernels"), json({"test_scale"}));
  const json& o1 = runs[1].at("outputs").at(0);
  ASSERT_EQ(o1.at("dims"), json({1, 3}));
  ASSERT_EQ(read_floats(dir / "out" / o1.at("file").get<std::string>()),
            (std::vector<float>{20.5f, 40.5f, 60.5f}));
}

TEST(OpRunner, every_value_type_parses) {
  const fs::path dir = scratch("types");
  write_floats(dir / "x.bin", {1, 2});
  write_file(dir / "case.json", R"({
    "target": "test.add_optional.default",
    "values": [
      {"type": "Tensor", "dtype": "float32", "dims": [2], "data": "x.bin"},
      {"type": "Null"},
      {"type": "Tensor", "dtype": "float32", "dims": [2]},
      {"type": "SymInt", "value": 3},
      {"type": "String", "value": "mean"},
      {"type": "IntList", "value": [1, 2]},
      {"type": "DoubleList", "value": [1.5, "inf", "-inf", "nan"]},
      {"type": "BoolList", "value": [true, false]},
      {"type": "Bool", "value": true},
      {"type": "ValueList", "value": [0, 2]},
      {"type": "Tensor", "dims": [1], "view_of": 2}
    ],
    "args": [0, 1, 2],
    "inputs": [0],
    "outputs": [2, 10],
    "resize": [{"tensors": [{"ref": 0, "dims": [1], "data": "x1.bin"}], "symints": [{"ref": 3, "value": 1}]}]
  })");
  write_floats(dir / "x1.bin", {7});
  runner::run_case_file(test_device(), (dir / "case.json").string(), (dir / "out").string());
  ASSERT_TRUE(read_floats(dir / "out" / "run0_value2.bin") == (std::vector<float>{1, 2}));
  ASSERT_TRUE(read_floats(dir / "out" / "run0_value10.bin") ==
              (std::vector<float>{1}));                                                  // the view
  ASSERT_TRUE(read_floats(dir / "out" / "run1_value2.bin") == (std::vector<float>{7}));  // resized
  ASSERT_THROWS_WITH(Error,
                     runner::run_case_file(test_device(), (dir / "case.json").string() + ".missing",
                                           (dir / "o").string()),
                     "cannot read case file");
}

TEST(OpRunner, malformed_cases_fail_with_the_place_and_the_problem) {
  const fs::path dir = scratch("bad");
  write_floats(dir / "x.bin", {1, 2, 3});
  const std::string head = R"({"target": "test.scale.default", "values": [)";
  const std::string tail = R"(], "args": [0, 1, 2], "inputs": [0], "outputs": [2]})";
  struct Bad {
    std::string values;
    std::vector<std::string> needles;
  };
  const Bad cases[] = {
      {R"({"type": "Tensor", "dtype": "float32", "dims": [4], "data": "x.bin"}, {"type": "Double", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [4]})",
       {"case $.values[0]: input value 0:", "x.bin holds 12 bytes, expected 16 for float32[4]"}},
      {R"({"type": "Tensor", "dtype": "f32", "dims": [3], "data": "x.bin"}, {"type": "Double", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {"case $.values[0].dtype: unknown dtype \"f32\""}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "x.bin", "shape": [3]}, {"type": "Double", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {"$.values[0]: unknown key \"shape\""}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "x.bin"}, {"type": "Float", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {"$.values[1].type: unknown value type \"Float\""}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "x.bin"}, {"type": "Int", "value": 1.5}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {"$.values[1].value: expected an integer, got 1.5"}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "x.bin"}, {"type": "Double", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [4]})",
       {"WebGPU test.scale: out has the wrong shape (got [4], expected [3])"}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "missing.bin"}, {"type": "Double", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {"cannot read input file", "missing.bin"}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "x.bin"}, {"type": "Int", "value": 9223372036854775808}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {"$.values[1].value: integer out of the int64 range"}},
      {R"({"type": "Tensor", "dtype": "float32", "dims": [3], "data": "x.bin", "dims": [4]}, {"type": "Double", "value": 1}, {"type": "Tensor", "dtype": "float32", "dims": [3]})",
       {".json: duplicate key \"dims\""}},
  };
  int i = 0;
  for (const auto& c : cases) {
    const fs::path file = dir / ("case" + std::to_string(i++) + ".json");
    write_file(file, head + c.values + tail);
    ASSERT_TRUE(webgpu_test::throws_with<Error>(
        [&] { runner::run_case_file(test_device(), file.string(), (dir / "out").string()); },
        c.needles))
        << file;
  }
  write_file(
      dir / "refs.json",
      R"({"target": "test.scale.default", "values": [], "args": [5], "inputs": [], "outputs": []})");
  ASSERT_THROWS_WITH(
      Error,
      runner::run_case_file(test_device(), (dir / "refs.json").string(), (dir / "out").string()),
      "case $.args[0]: value ref 5 out of range (the case has 0 values)");
  write_file(
      dir / "unknown.json",
      R"({"target": "aten.nope.default", "values": [], "args": [], "inputs": [], "outputs": []})");
  ASSERT_THROWS_WITH(
      Error,
      runner::run_case_file(test_device(), (dir / "unknown.json").string(), (dir / "out").string()),
      "no op registered for target 'aten.nope.default'");
  // strict JSON: errors name the file and the place
  write_file(dir / "syntax.json", "{\"target\": \"x\",}");
  ASSERT_THROWS_WITH(
      Error,
      runner::run_case_file(test_device(), (dir / "syntax.json").string(), (dir / "out").string()),
      "syntax.json: ", "line 1, column 16", "expected string literal");
  write_file(dir / "comment.json", "// a comment\n{}");
  ASSERT_THROWS_WITH(
      Error,
      runner::run_case_file(test_device(), (dir / "comment.json").string(), (dir / "out").string()),
      "comment.json: ", "line 1, column 1");
}
