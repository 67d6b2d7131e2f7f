// index_tensor: out[e] = self[source_index(e)] (index_source.wgsl), LANES words per
// invocation: one, or (index_tensor_vec4) a vec4 where self's last dim is kept and a
// multiple of 4, so a vec4 of the output reads one aligned vec4 of the input.

fn write_element(i: u32) {
  output[i] = input[source_index(i * LANES) / LANES];
}
