#include "webgpu_delegate/build_stamp.h"

#include "generated_stamp.h"

namespace webgpu_delegate {

const char* generated_stamp() { return WEBGPU_GENERATED_STAMP; }

}  // namespace webgpu_delegate
