"""Whether a delegated model's outputs match eager PyTorch: one criterion for the tests,
the GPU scripts and `opgen run --reference`.

`eager_outputs(output)` flattens what the model's forward returned exactly as
torch.export flattens it into the program's outputs (the pytree leaves, so a Hugging Face
ModelOutput, a tuple or a dict of tensors alike; None fields are no outputs), each named
by its path (`.logits`, `[1]`, `['boxes']`). `eager_mismatch(got, want)` says why one
output does not match, relative to the output's scale; `judge` runs it over every output
and names the first that fails. A float16 program (`export --fp16`: weights and every
intermediate rounded to half, float32 accumulators inside the kernels) is judged against
eager float32 by HALF_CRITERION instead: each element within HALF_SCALED_ERROR of the
output's scale. Half carries 11 significant bits (a rounding is 2^-11 = 4.9e-4 relative)
and a model rounds at every op, so a few 1e-3 of the scale is what a correct float16
program gives; a wrong kernel is off by the scale itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# What "matches eager" means for a delegated model's outputs in fp32: element-wise within
# ATOL + RTOL * |expected|, and the largest error at most SCALED_ERROR of the output's
# largest |expected|.
ATOL = RTOL = 1e-3
SCALED_ERROR = 1e-4
CRITERION = (f"each element within {ATOL:g} + {RTOL:g} * |eager|, and the max abs error at "
             f"most {SCALED_ERROR:g} of the output's scale (its largest |eager|)")
# float16 programs against eager float32
HALF_SCALED_ERROR = 1e-2
HALF_CRITERION = (f"float16 program: the max abs error at most {HALF_SCALED_ERROR:g} of the "
                  f"output's scale (its largest |eager|)")


def eager_mismatch(got, want, half: bool = False) -> tuple[float, str | None]:
    """The max abs error of `got` against eager's `want`, and why it does not match (None
    when it does); `half`: by HALF_CRITERION."""
    import torch

    if tuple(got.shape) != tuple(want.shape):
        return float("inf"), f"shape {tuple(got.shape)}, eager's {tuple(want.shape)}"
    g, w = got.double(), want.double()
    if half:
        nan = torch.isnan(w)
        if not torch.equal(torch.isnan(g), nan):
            return float("nan"), "NaN where eager has a number, or a number where eager has NaN"
        g, w = g[~nan], w[~nan]
    error = (g - w).abs().max().item() if g.numel() else 0.0
    if half:
        scale = max(w.abs().max().item(), 1e-30) if w.numel() else 1.0
        if not error / scale <= HALF_SCALED_ERROR:
            return error, (f"max abs error {error:.3g} is {error / scale:.3g} of the output's "
                           f"scale {scale:.3g} (at most {HALF_SCALED_ERROR})")
        return error, None
    if not torch.allclose(g, w, atol=ATOL, rtol=RTOL):
        worst = int(((g - w).abs() - RTOL * w.abs()).argmax()) if g.numel() else 0
        return error, (f"element {worst}: {g.flatten()[worst].item():.6g}, eager's "
                       f"{w.flatten()[worst].item():.6g} (atol {ATOL}, rtol {RTOL})")
    scale = max(w.abs().max().item(), 1e-30) if w.numel() else 1.0
    if error / scale > SCALED_ERROR:
        return error, (f"max abs error {error:.3g} is {error / scale:.3g} of the output's "
                       f"scale {scale:.3g} (at most {SCALED_ERROR})")
    return error, None


def eager_outputs(output: Any) -> list[tuple[str, Any]]:
    """(name, tensor) for each output torch.export makes of `output`, in the program's
    order: the pytree leaves (ModelOutput, tuple, list, dict and dataclass nodes flattened
    as torch.export flattens them), named by their path (`.logits`, `[0]`); a number
    becomes a 0-d tensor, a None stays None (torch.export keeps it as an output)."""
    import torch

    named: list[tuple[str, Any]] = []
    _walk(output, "", named)
    return [(name or "output", leaf if leaf is None or isinstance(leaf, torch.Tensor)
             else torch.as_tensor(leaf)) for name, leaf in named]


def _walk(node: Any, path: str, out: list) -> None:
    """The leaves under `node` with their paths, in torch.utils._pytree's order (a node
    type registered without key names, as transformers registers ModelOutput, is named
    by its flatten context when that holds one name per child)."""
    from torch.utils import _pytree as pytree

    if pytree.tree_is_leaf(node):
        out.append((path, node))
        return
    handler = pytree.SUPPORTED_NODES[pytree._get_node_type(node)]
    if handler.flatten_with_keys_fn is not None:
        entries, _ = handler.flatten_with_keys_fn(node)
        for key, child in entries:
            _walk(child, path + str(key), out)
        return
    children, context = handler.flatten_fn(node)
    names = (context if isinstance(context, (list, tuple)) and len(context) == len(children)
             and all(isinstance(k, str) for k in context) else None)
    for i, child in enumerate(children):
        _walk(child, path + (f".{names[i]}" if names else f"[{i}]"), out)


@dataclass
class Verdict:
    """Each output compared: (index, name, shape, max abs error, why it fails or None);
    `failure` names the first output that fails (None when all match)."""

    rows: list[tuple[int, str, tuple, float, str | None]]
    failure: str | None

    @property
    def worst(self) -> float:
        return max((r[3] for r in self.rows), default=0.0)


def judge(outputs: list, expected: list[tuple[str, Any]], half: bool = False) -> Verdict:
    """The delegate's `outputs` against eager's named `expected` (from `eager_outputs`);
    `half`: a float16 program, by HALF_CRITERION."""
    rows = []
    for i, (got, (name, want)) in enumerate(zip(outputs, expected)):
        if want is None or got is None:
            why = None if want is None and got is None else f"{got!r:.40}, eager's {want!r:.40}"
            rows.append((i, name, tuple(getattr(got, "shape", ())), 0.0, why))
            continue
        error, why = eager_mismatch(got, want, half)
        rows.append((i, name, tuple(got.shape), error, why))
    failure = None
    if len(outputs) != len(expected):
        failure = (f"the .pte gives {len(outputs)} output(s), the reference's forward "
                   f"{len(expected)} (flattened as torch.export flattens it: "
                   f"{', '.join(n for n, _ in expected) or 'none'})")
    else:
        bad = next((r for r in rows if r[4] is not None), None)
        if bad is not None:
            failure = f"output {bad[0]} ({bad[1]}) does not match eager: {bad[4]}"
    return Verdict(rows, failure)
