// element(i) for arg_reduce_rows on float tensors: through the input's view (float32, or
// float16 widened exactly on the kernel's float16 twins).
fn element(i: u32) -> Elem {
  return input_load(i);
}
