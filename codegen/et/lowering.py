"""The hooks one lowering installs in ExecuTorch's Vulkan flow: the partitioner with the
ops kept whole, the conv + clamp fusion switch, the partitioner's skip log captured for
the error when ExecuTorch's lowering fails, the constants a lowering leaves unread, and
the fusion patterns' graphs traced once per process.
"""

from __future__ import annotations

import contextlib
import functools
import logging

from codegen.et.errors import ExportError

CONV_WITH_CLAMP = "et_vk.conv_with_clamp.default"


# Edge ops the Vulkan lowering turns into an op we serve, so the partitioner must be
# allowed to take them: it fuses conv + hardtanh (ReLU6) into conv_with_clamp. (addmm,
# which it fuses with a permuted weight back into linear, has its own spec.) One it does
# not fuse reaches the VK00 read-back check as an operator without a handler, so nothing
# unserved is ever delegated silently.
FUSED_FROM = {CONV_WITH_CLAMP: ("aten.hardtanh.default",)}
# Ops a spec serves whole that ExecuTorch's decomposition table would break up before the
# partitioner sees them: scaled_dot_product_attention's math path (HF attention) calls
# _safe_softmax, which decomposes into a softmax and five mask ops over the scores.
KEPT_WHOLE = ("aten._safe_softmax.default",)


def trace_patterns_once() -> None:
    """ExecuTorch's Vulkan fusion patterns given as graphs (the two RoPE forms) trace them
    with torch.export and to_edge on every call of the registry's get_graphs_fn: twice per
    lowering (the partitioner's match, then the preprocessing's replacement), seconds
    each. The wheel's lru_cache sits above the registration, so the registry holds the
    uncached function; its entries are memoized here, once per process. The graphs are
    patterns to match, never changed, and their shapes do not depend on the random
    example inputs they are traced with."""
    from executorch.backends.vulkan.patterns import fusable_patterns

    for entry in fusable_patterns.values():
        fn = entry.get_graphs_fn
        if fn is not None and not hasattr(fn, "cache_info"):
            entry.get_graphs_fn = functools.cache(fn)


@contextlib.contextmanager
def conv_clamp_fusion(enabled: bool):
    """The Vulkan preprocessing fuses conv + relu/hardtanh into et_vk.conv_with_clamp;
    without a handler for that target the fusion is switched off for this lowering."""
    if enabled:
        yield
        return
    import executorch.backends.vulkan.vulkan_preprocess as vulkan_preprocess
    from executorch.exir.pass_base import ExportPass, PassResult

    class NoConvClampFusion(ExportPass):
        def call(self, graph_module):
            return PassResult(graph_module, False)

    saved = vulkan_preprocess.FuseClampPass
    vulkan_preprocess.FuseClampPass = NoConvClampFusion
    try:
        yield
    finally:
        vulkan_preprocess.FuseClampPass = saved


def quiet_partitioner_logs():
    # The Vulkan partitioner sets the root logger to INFO and logs every skipped node.
    logging.getLogger("").setLevel(logging.WARNING)


SKIP_PREFIX = "[Vulkan Partitioner] Due to "


@contextlib.contextmanager
def partitioner_skips():
    """Collects the Vulkan partitioner's "skipping <node>" lines (it logs them at INFO on
    the root logger) without printing them, for the error when lowering fails."""
    root = logging.getLogger("")
    skips: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record):
            message = record.getMessage()
            if message.startswith(SKIP_PREFIX):
                skips.append(message[len(SKIP_PREFIX):])

    handler = Collect(logging.INFO)
    saved_level = root.level
    saved = [(h, h.level) for h in root.handlers]
    for h, level in saved:
        h.setLevel(max(level, logging.WARNING))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield skips
    finally:
        root.removeHandler(handler)
        root.setLevel(saved_level)
        for h, level in saved:
            h.setLevel(level)


def lowering_failed(e: Exception, skips: list[str], rejections: list) -> ExportError:
    """The error for a lowering ExecuTorch could not finish, naming the nodes left outside
    the delegate: with them the graph is split into several delegate partitions, and
    ExecuTorch's Vulkan preprocessing has failed on such graphs (its FuseBatchNormPass on
    torch.roll's index arithmetic before fmod ran on the delegate, and on BEiT's integer
    sum before sum took integers)."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    outside = [f"  {r}" for r in rejections] + [f"  {s}" for s in dict.fromkeys(skips)]
    if not outside:
        return ExportError(f"ExecuTorch's lowering failed ({type(e).__name__}: {first}) with "
                           "every node on the delegate")
    return ExportError(
        f"ExecuTorch's lowering failed ({type(e).__name__}: {first}) with {len(outside)} "
        "node(s) left outside the delegate, which splits the graph into several partitions "
        "(ExecuTorch's Vulkan preprocessing has failed on such graphs); a spec that runs "
        "them on the delegate avoids it:\n" + "\n".join(outside))


def drop_unused_constants(program) -> list[str]:
    """Removes the constant inputs (lifted tensors, buffers, parameters) no node of
    `program` reads any more, in place; returns their names.

    ExecuTorch's edge passes prune empty tensors from `cat` (PruneEmptyTensorsPass) after
    its unused-parameter pass, which only removes parameters, has run; a causal LM's
    empty KV cache (transformers' DynamicLayer starts keys and values as [0] tensors,
    lifted as constants) is left as placeholders nothing reads. The emitter still writes
    them as constant tensors of 0 bytes, and when they are the program's only constants
    outside the delegate the constant segment is 0 bytes long: the runtime's loader
    returns it with a null data pointer, which Program::get_constant_buffer_data reads as
    "no constant segment" and takes the deprecated inline constant_buffer path, disabled
    in the runtime (NotSupported, "ExecuTorch error 35" at load)."""
    from torch.export.graph_signature import InputKind

    signature = program.graph_signature
    mutated = set(signature.buffers_to_mutate.values())
    placeholders = {n.name: n for n in program.graph.nodes if n.op == "placeholder"}
    kinds = (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR)
    unused = [s for s in signature.input_specs
              if s.kind in kinds and s.target not in mutated
              and s.arg.name in placeholders and not placeholders[s.arg.name].users]
    if not unused:
        return []
    for spec in unused:
        signature.input_specs.remove(spec)
        program.graph.erase_node(placeholders[spec.arg.name])
    still_read = {s.target for s in signature.input_specs}
    for spec in unused:
        if spec.target not in still_read:
            program.state_dict.pop(spec.target, None)
            program.constants.pop(spec.target, None)
    program.graph_module.recompile()
    return [s.arg.name for s in unused]


def partitioner(allowlist, kept_whole: list[str], fp16: bool = False):
    """ExecuTorch's Vulkan partitioner, also keeping the `kept_whole` targets (KEPT_WHOLE
    ops this lowering has a handler for) from decomposition; `fp16`: its force_fp16 option
    (every float32 tensor of the delegate serialized as float16)."""
    import torch
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner

    def aten_op(target: str):
        ns, name, overload = target.split(".")
        return getattr(getattr(getattr(torch.ops, ns), name), overload)

    class WebGPUPartitioner(VulkanPartitioner):
        def ops_to_not_decompose(self, ep):
            ops, filter_fn = super().ops_to_not_decompose(ep)
            return [*ops, *map(aten_op, kept_whole)], filter_fn

    return WebGPUPartitioner({"force_fp16": True} if fp16 else None,
                             operator_allowlist=allowlist)
