// The native op runner: builds a one-op graph from a JSON case file, runs it
// (and each resize step), and writes every output's raw bytes plus a
// manifest.json into an output directory. See main.cpp for the format.
#pragma once

#include <string>

#include "webgpu_delegate/device.h"

namespace webgpu_delegate::runner {

// Throws webgpu_delegate::Error for a malformed case, a failed guard, or a
// device error; the message is the one the op (or runtime) produced.
void run_case_file(Device& device, const std::string& case_path, const std::string& out_dir);

}  // namespace webgpu_delegate::runner
