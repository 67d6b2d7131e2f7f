#pragma once

namespace webgpu_delegate {

// The SHA-256 of the generated sources this delegate was compiled from (written at
// build time by tools/generated_stamp.cmake). The runners print it (--build-stamp);
// the Python executors refuse a runner whose stamp is not that of generated/ now.
const char* generated_stamp();

}  // namespace webgpu_delegate
