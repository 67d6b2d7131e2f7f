// slice_scatter: one 32-bit word per invocation (a float32 or int32 element, or four bools
// of an inner block of whole words), from src inside the slice, else from self.

fn write_element(e: u32) {
  let k = src_offset(e);
  if (k == NOT_IN_SLICE) {
    output[e] = input[e];
  } else {
    output[e] = src[k];
  }
}
