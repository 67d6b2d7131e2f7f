"""A tensor seen as lines along one dim (not a spec file: the loader skips `_` files):
`dim` picks the dim, `N` its size; `lines` lines of N elements, `inner` apart. cumsum and
the softmax family read their input so."""

from codegen.language import Guard

LINE_LETS = {
    "in_range": "dim >= -self.rank and dim < self.rank",
    "d": "dim % self.rank if in_range else 0",
    "N": "self.dims[d]",
    "inner": "prod(self.dims[d + 1:])",
    "lines": "prod(self.dims[:d]) * inner",
}
DIM_GUARD = Guard("in_range", "dim", "names a dim the input does not have", got="dim",
                  expected="a dim in -{self.rank}..{self.rank - 1}")
