"""Static int8 models for the WebGPU delegate: PT2E quantization that ExecuTorch's Vulkan
partitioner turns into its et_vk.q8ta_* ops, and ExecuTorch's own CPU run of the same
quantized program (the reference a delegated int8 model is judged against).

The recipe is the one ExecuTorch's Vulkan tests use for its static int8 ops
(backends/vulkan/test/test_vulkan_delegate.py): torch.export, prepare_pt2e with the
XNNPACK quantizer's symmetric per-channel static config (int8 weights per output channel,
int8 activations per tensor), calibration, convert_pt2e. (The wheel's VulkanQuantizer
annotates linears only, weight-only or dynamic: it emits no q8ta op.) The lowering then
fuses dequantize -> conv/linear/add/relu -> quantize into q8ta ops and keeps the
quantize/dequantize at the graph's float boundaries.

    from codegen.et.quantize import quantize_int8, cpu_reference
    qmodel = quantize_int8(model, (x,))
    export(qmodel, (x,), "model_int8.pte")       # codegen.et.export
    want = cpu_reference(qmodel, (x,))           # ExecuTorch's CPU kernels
"""

from __future__ import annotations

from typing import Iterable


def quantize_int8(model, example_inputs: tuple, calibration: Iterable[tuple] = ()):
    """`model` quantized to static int8 (PT2E), calibrated on `example_inputs` and each
    tuple of `calibration`: the converted GraphModule, in eval mode, ready for
    `codegen.et.export.export` (it refuses train()/eval(), as every converted PT2E graph
    does; export takes it as it is)."""
    import torch
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)
    from torchao.quantization.pt2e import move_exported_model_to_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    quantizer = XNNPACKQuantizer().set_global(
        get_symmetric_quantization_config(is_per_channel=True, is_dynamic=False))
    graph = torch.export.export(model.eval(), tuple(example_inputs)).module()
    prepared = prepare_pt2e(graph, quantizer)
    with torch.no_grad():
        for inputs in (tuple(example_inputs), *calibration):
            prepared(*inputs)
    return move_exported_model_to_eval(convert_pt2e(prepared))


def cpu_reference(model, inputs: tuple) -> list:
    """`model`'s outputs from ExecuTorch's runtime on its CPU kernels (portable and
    quantized ops, no delegate): the program the delegate runs, before the Vulkan
    lowering fuses it."""
    import torch
    import executorch.kernels.quantized  # noqa: F401  (the quantized ops' out variants)
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    program = to_edge_transform_and_lower(torch.export.export(model, tuple(inputs)))
    buffer = program.to_executorch().buffer
    method = Runtime.get().load_program(buffer).load_method("forward")
    return list(method.execute(list(inputs)))


def output_scales(model) -> list[float]:
    """The quantization scale of each output of a converted PT2E graph (the scale of the
    dequantize_per_tensor that produces it): one int8 step of that output."""
    import torch

    dequantize = torch.ops.quantized_decomposed.dequantize_per_tensor.default
    (output,) = [n for n in model.graph.nodes if n.op == "output"]
    scales = []
    for node in output.args[0]:
        if getattr(node, "target", None) is not dequantize:
            raise ValueError(f"output {node} is not a dequantize_per_tensor (got "
                             f"{getattr(node, 'target', node)})")
        scales.append(float(node.args[1]))
    return scales
