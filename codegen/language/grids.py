"""Grid kinds: how many workgroups a route dispatches, in one place per kind.

A grid kind owns its expressions (`exprs`), the C++ that computes the grid in a handler
(`cpp`), the same computation in Python (`evaluate`) and the WGSL helpers its kernels
get in their module (`wgsl_helpers`). The C++ calls the runtime's
`utils::elementwise_grid` / `utils::tiles_grid`; `elementwise_grid` and `tiles_grid`
below are their Python twins.
"""

from __future__ import annotations

from typing import ClassVar

from codegen.language.checked import SpecError, spec_class
from codegen.graph.errors import OpError

MAX_ITEMS_PER_INVOCATION = 16
LIMIT_CPP = "graph.limits().max_workgroups_per_dimension"


def ceil_div(a: int, b: int) -> int:
    if b <= 0:
        raise OpError(f"ceil_div divisor must be positive (got {b})")
    return -((-a) // b)


def elementwise_grid(count: int, wg_x: int, max_per_dim: int) -> tuple[int, int, int]:
    """`count` invocations in workgroups of `wg_x`, spilling into y past the limit."""
    if count < 0:
        raise OpError(f"elementwise_grid: negative count {count}")
    groups = max(1, ceil_div(count, wg_x))
    if groups <= max_per_dim:
        return (groups, 1, 1)
    rows = ceil_div(groups, max_per_dim)
    if rows > max_per_dim:
        raise OpError(f"elementwise_grid: {count} invocations exceed the 2-D dispatch limit")
    return (max_per_dim, rows, 1)


def tiles_grid(x: int, y: int, z: int, tx: int, ty: int, max_per_dim: int) -> tuple[int, int, int]:
    gx, gy, gz = max(1, ceil_div(x, tx)), max(1, ceil_div(y, ty)), max(1, z)
    if max(gx, gy, gz) > max_per_dim:
        raise OpError(f"tiles_grid: {gx}x{gy}x{gz} workgroups exceed the per-dimension limit "
                      f"{max_per_dim}")
    return (gx, gy, gz)


class Grid:
    """The base of the grid kinds; `FIELDS` are its expression fields."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def exprs(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in self.FIELDS}

    def cpp(self, exprs: dict[str, str], kernel_const: str) -> str:
        """The C++ of the grid, given the C++ of its expressions and the kernel constant."""
        raise NotImplementedError

    def evaluate(self, values: dict[str, int], workgroup: tuple[int, int, int],
                 max_per_dim: int) -> tuple[int, int, int]:
        raise NotImplementedError

    @classmethod
    def wgsl_helpers(cls, grids: list["Grid"], where: str) -> list[str]:
        """Declaration-block lines for a kernel whose routes use `grids` (all of this kind)."""
        return []


@spec_class
class Elementwise(Grid):
    """A 1-D grid of `count` items, spilling into y past the per-dimension limit.

    Each invocation takes `per_invocation` items, WORKGROUP_SIZE_X apart so that every
    access is coalesced across the workgroup; the kernel gets ITEMS_PER_INVOCATION and
    first_item() to find them (item k of an invocation is first + k * WORKGROUP_SIZE_X)."""

    count: str
    per_invocation: int = 1
    FIELDS = ("count",)

    def __post_init__(self) -> None:
        if not 1 <= self.per_invocation <= MAX_ITEMS_PER_INVOCATION:
            raise SpecError(f"Elementwise per_invocation must be 1..{MAX_ITEMS_PER_INVOCATION} "
                            f"(got {self.per_invocation})")

    def cpp(self, exprs: dict[str, str], kernel_const: str) -> str:
        per_workgroup = f"{kernel_const}.workgroup_size[0]"
        if self.per_invocation > 1:
            per_workgroup += f" * {self.per_invocation}"
        return f"utils::elementwise_grid({exprs['count']}, {per_workgroup}, {LIMIT_CPP})"

    def evaluate(self, values, workgroup, max_per_dim):
        return elementwise_grid(values["count"], workgroup[0] * self.per_invocation, max_per_dim)

    @classmethod
    def wgsl_helpers(cls, grids, where):
        lines = ["// The invocation's item index in a 1-D grid that may spill into y.",
                 "fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {\n"
                 "  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;\n}"]
        per = {g.per_invocation for g in grids}
        if len(per) > 1:
            raise SpecError(f"{where} has routes with different Elementwise per_invocation "
                            f"{sorted(per)}; a kernel takes one")
        if per != {1}:
            lines += [f"const ITEMS_PER_INVOCATION: u32 = {per.pop()}u;",
                      "// The invocation's first item; its item k is first + k * "
                      "WORKGROUP_SIZE_X.",
                      "fn first_item(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {\n"
                      "  let lane = gid.x % WORKGROUP_SIZE_X;\n"
                      "  return (linear_index(gid, num_workgroups) - lane) * "
                      "ITEMS_PER_INVOCATION + lane;\n}"]
        return lines


@spec_class
class Rows(Grid):
    """One workgroup per row, spilling into y past the per-dimension limit."""

    count: str
    FIELDS = ("count",)

    def cpp(self, exprs: dict[str, str], kernel_const: str) -> str:
        return f"utils::elementwise_grid({exprs['count']}, 1, {LIMIT_CPP})"

    def evaluate(self, values, workgroup, max_per_dim):
        return elementwise_grid(values["count"], 1, max_per_dim)

    @classmethod
    def wgsl_helpers(cls, grids, where):
        return ["// The workgroup's row index in a 1-D grid of rows that may spill into y.",
                "fn row_index(wid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {\n"
                "  return wid.y * num_workgroups.x + wid.x;\n}"]


@spec_class
class Tiles(Grid):
    """A 2-D (x3 batches) grid of tiles: x items per tile across, y down."""

    x: str
    y: str
    tile: tuple[int, int]
    z: str = "1"
    FIELDS = ("x", "y", "z")

    def cpp(self, exprs: dict[str, str], kernel_const: str) -> str:
        return (f"utils::tiles_grid({exprs['x']}, {exprs['y']}, {exprs['z']}, {self.tile[0]}, "
                f"{self.tile[1]}, {LIMIT_CPP})")

    def evaluate(self, values, workgroup, max_per_dim):
        return tiles_grid(values["x"], values["y"], values["z"], self.tile[0], self.tile[1],
                          max_per_dim)


GRID_KINDS = (Elementwise, Rows, Tiles)  # the order their WGSL helpers are emitted in
