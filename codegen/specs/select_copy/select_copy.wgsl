// select_copy: out[o, r] = self[o, index, r] over the selected dim (outer o, inner r).

fn write_element(i: u32) {
  let outer = i / params.inner;
  let r = i % params.inner;
  output[i] = input[(outer * params.size + params.index) * params.inner + r];
}
