# After the module links: webgpu_delegate.stamp beside it holds the build stamp of the
# generated sources it was compiled from (tools/generated_stamp.cmake's hash), which
# `opgen web` and the browser executor compare with generated/ (codegen/web/site.py).
#   cmake -DHEADER=<generated_stamp.h> -DOUTPUT=<stamp file> -P web/stamp.cmake
file(STRINGS "${HEADER}" line REGEX "#define WEBGPU_GENERATED_STAMP ")
string(REGEX REPLACE ".*\"([0-9a-f]+)\".*" "\\1" stamp "${line}")
file(WRITE "${OUTPUT}" "${stamp}\n")
