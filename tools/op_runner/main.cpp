// webgpu_op_runner: runs one op of the native delegate from a JSON case file.
//
//   webgpu_op_runner --case CASE.json --out DIR [--backend Vulkan|OpenGL|...]
//                    [--mask-features subgroups,shader-f16]
//   webgpu_op_runner --list-targets
//   webgpu_op_runner --device-info [--backend ...] [--mask-features ...]
//   webgpu_op_runner --build-stamp
//
// --mask-features: optional WebGPU features the device is created without even
// where the adapter offers them (routes that need them give way to their
// fallbacks). --device-info prints the device's optional features on its
// "features" line. --build-stamp prints the hash of the generated sources the runner was
// built from (tools/generated_stamp.cmake), without opening a device.
//
// Case file (strict JSON; unknown keys are errors):
//   {
//     "target": "aten.add.Tensor",
//     "values": [                       // value i gets ValueRef i
//       {"type": "Tensor", "dtype": "float32", "dims": [2, 3], "data": "x.bin"},
//       {"type": "Tensor", "dtype": "float32", "dims": [2, 3], "data": "y.bin"},
//       {"type": "Double", "value": 1.0},          // number or "inf" / "-inf" / "nan"
//       {"type": "Tensor", "dtype": "float32", "dims": [2, 3]}
//     ],
//     "args": [0, 1, 2, 3],             // the op's argument refs, in schema order
//     "inputs": [0, 1],                 // tensors filled from their "data" file
//     "outputs": [3],                   // tensors written after each run (or a SymInt
//                                       // an op computes: reported by value)
//     "resize": [                       // optional: re-run with new live dims
//       {"tensors": [{"ref": 0, "dims": [1, 3], "data": "x1.bin"},
//                    {"ref": 1, "dims": [1, 3], "data": "y1.bin"}],
//        "symints": [{"ref": 5, "value": 1}]}
//     ]
//   }
// Value types: Tensor {dtype: float32|int32|int64|bool|float16|uint8|int8, dims,
// data?: raw little-endian file (relative to the case file), view_of?: ref of
// an earlier tensor whose buffer it aliases}, Null {}, Int/SymInt {value:
// integer}, Double {value}, Bool {value}, String {value}, IntList, DoubleList,
// BoolList {value: array}, ValueList {value: array of earlier refs}.
//
// Output: DIR/run<k>_value<ref>.bin (the live bytes of each output after run k;
// run 0 is the first execution, run k the k-th resize step) and DIR/manifest.json:
//   {"target": ..., "device": ..., "features": ["subgroups"], "runs": [{"outputs":
//    [{"ref": 3, "dtype": "float32", "dims": [2, 3], "file": "run0_value3.bin"}],
//    (a SymInt output: {"ref": 4, "symint": 7})
//    "kernels": ["add"]}, ...]}   ("kernels": the kernel of each recorded dispatch,
//    in order; "features": the device's optional WebGPU features)
//
// Exit status: 0 success; 1 an Error (bad case, failed guard, device error):
// its message goes to stderr and, with --out, to DIR/error.txt verbatim;
// 2 bad command line; 3 an unexpected internal exception.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "runner.h"
#include "webgpu_delegate/build_stamp.h"
#include "webgpu_delegate/device.h"
#include "webgpu_delegate/graph.h"

namespace {

int usage(const char* why) {
  std::cerr << "webgpu_op_runner: " << why << "\n"
            << "usage: webgpu_op_runner --case CASE.json --out DIR [--backend NAME] "
               "[--mask-features F1,F2]\n"
            << "       webgpu_op_runner --list-targets\n"
            << "       webgpu_op_runner --device-info [--backend NAME] [--mask-features F1,F2]\n"
            << "       webgpu_op_runner --build-stamp\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string case_path, out_dir, backend, masked;
  bool list_targets = false, device_info = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](std::string& into) {
      if (i + 1 >= argc) return false;
      into = argv[++i];
      return true;
    };
    if (a == "--case") {
      if (!next(case_path)) return usage("--case needs a file");
    } else if (a == "--out") {
      if (!next(out_dir)) return usage("--out needs a directory");
    } else if (a == "--backend") {
      if (!next(backend)) return usage("--backend needs a name");
    } else if (a == "--mask-features") {
      if (!next(masked)) return usage("--mask-features needs feature names");
    } else if (a == "--list-targets") {
      list_targets = true;
    } else if (a == "--device-info") {
      device_info = true;
    } else if (a == "--build-stamp") {
      std::cout << webgpu_delegate::generated_stamp() << "\n";
      return 0;
    } else if (a == "-h" || a == "--help") {
      usage("help");
      return 0;
    } else {
      return usage(("unknown argument " + a).c_str());
    }
  }

  if (list_targets) {
    for (const auto& t : webgpu_delegate::OperatorRegistry::instance().targets())
      std::cout << t << "\n";
    return 0;
  }
  if (!device_info && (case_path.empty() || out_dir.empty()))
    return usage("--case and --out are required");

  try {
    webgpu_delegate::DeviceOptions options;
    options.backend = backend;
    for (size_t start = 0; start < masked.size();) {
      const size_t comma = std::min(masked.find(',', start), masked.size());
      options.masked_features.push_back(masked.substr(start, comma - start));
      start = comma + 1;
    }
    webgpu_delegate::Device device(options);
    if (device_info) {
      const auto& l = device.limits();
      std::cout << device.describe() << "\n"
                << "maxComputeWorkgroupsPerDimension " << l.max_workgroups_per_dimension << "\n"
                << "maxComputeInvocationsPerWorkgroup " << l.max_invocations_per_workgroup << "\n"
                << "maxComputeWorkgroupSize " << l.max_workgroup_size[0] << "x"
                << l.max_workgroup_size[1] << "x" << l.max_workgroup_size[2] << "\n"
                << "maxStorageBufferBindingSize " << l.max_storage_buffer_binding_size << "\n"
                << "maxBufferSize " << l.max_buffer_size << "\n"
                << "features";
      for (const auto& f : device.feature_names()) std::cout << " " << f;
      std::cout << "\n";
      return 0;
    }
    webgpu_delegate::runner::run_case_file(device, case_path, out_dir);
    return 0;
  } catch (const webgpu_delegate::Error& e) {
    std::cerr << e.what() << "\n";
    if (!out_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(out_dir, ec);
      std::ofstream(std::filesystem::path(out_dir) / "error.txt", std::ios::binary) << e.what();
    }
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "webgpu_op_runner: internal error: " << e.what() << "\n";
    return 3;
  }
}
