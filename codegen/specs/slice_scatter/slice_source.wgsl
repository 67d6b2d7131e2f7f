// Shared by slice_scatter's kernels: output element (or word) e lies at coordinate c along
// the scattered dim of [outer, in_len, inner]; it takes src's element (outer, j, inner) of
// [outer, slice_len, inner] when c = start + j * step with j < slice_len, else self's.

const NOT_IN_SLICE: u32 = 0xffffffffu;

// src's element for output element e, or NOT_IN_SLICE where e keeps self's.
fn src_offset(e: u32) -> u32 {
  let inner = e % params.inner;
  let rest = e / params.inner;
  let c = rest % params.in_len;
  let outer = rest / params.in_len;
  if (c < params.start) {
    return NOT_IN_SLICE;
  }
  let j = (c - params.start) / params.step;
  if ((c - params.start) % params.step != 0u || j >= params.slice_len) {
    return NOT_IN_SLICE;
  }
  return (outer * params.slice_len + j) * params.inner + inner;
}
