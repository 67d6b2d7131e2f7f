// element(i) for arg_reduce_rows_i32: the int32 word itself.
fn element(i: u32) -> Elem {
  return input[i];
}
