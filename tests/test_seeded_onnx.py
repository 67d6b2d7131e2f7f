"""benchmarks/seeded_constants: an ONNX model's 4-bit weights (reseed_onnx_data) travel
without their bytes and come back byte for byte (llm_ort.py's pack and run); a .pte's
float constants are drawn again in their own dtype (llm_bench.py's pack, --fp16 too)."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from codegen.paths import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))


def _model(folder, rng):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    packed = rng.integers(0, 256, (64, 2, 16), dtype=np.uint8)  # MatMulNBits' B
    scales = rng.uniform(-0.01, 0.01, (64, 2)).astype(np.float16)
    norm = np.ones(64, np.float16)  # not a 4-bit weight: stays in the file
    inits = [numpy_helper.from_array(packed, "w.MatMul.weight_Q4"),
             numpy_helper.from_array(scales, "w.MatMul.weight_scales"),
             numpy_helper.from_array(norm, "norm.weight")]
    node = helper.make_node("MatMulNBits", ["x", "w.MatMul.weight_Q4",
                                            "w.MatMul.weight_scales"], ["y"],
                            domain="com.microsoft", K=64, N=64, bits=4, block_size=32)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT16, [1, 64])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT16, [1, 64])], inits)
    model = helper.make_model(graph)
    path = folder / "model.onnx"
    onnx.save(model, str(path), save_as_external_data=True, location="model.onnx.data",
              size_threshold=0)
    return path


def test_reseed_onnx_data_round_trip(tmp_path):
    import onnx
    import seeded_constants
    import seeded_weights

    src = tmp_path / "m"
    src.mkdir()
    path = _model(src, np.random.default_rng(0))
    weights, files, summary = seeded_constants.reseed_onnx_data(path, min_bytes=0)
    assert sorted(weights) == ["m/w.MatMul.weight_Q4", "m/w.MatMul.weight_scales"]
    assert weights["m/w.MatMul.weight_scales"]["kind"] == "float16"
    assert [name for name, _ in summary["kept_initializers"]] == ["norm.weight"]
    kept = src / "model.onnx.data.kept"
    assert not (src / "model.onnx.data").exists() and kept.stat().st_size == 128
    seeded_weights.write_manifest(src, "m", weights, files)
    out = tmp_path / "restored"
    seeded_weights.restore_model(src, "m", out)
    (out / "model.onnx").write_bytes(path.read_bytes())
    model = onnx.load(str(out / "model.onnx"))
    values = {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}
    scales = values["w.MatMul.weight_scales"]
    assert scales.dtype == np.float16 and np.abs(scales).max() <= 0.01
    np.testing.assert_array_equal(values["norm.weight"], np.ones(64, np.float16))
    # a manifest that does not describe the kept bytes fails loud
    manifest = json.loads((src / "m.weights.json").read_text())
    manifest["files"]["model.onnx.data"]["sha256"] = "0" * 64
    (src / "m.weights.json").write_text(json.dumps(manifest))
    with pytest.raises(SystemExit, match="differs from the original"):
        seeded_weights.restore_model(src, "m", tmp_path / "again")


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_pte_float_constants_are_redrawn_in_their_dtype_and_range(dtype):
    """A .pte constant of float32 or float16 (a force_fp16 export's scales) travels as a
    spec and is drawn again in its own dtype, size and range; other dtypes keep their
    bytes."""
    import seeded_constants

    original = np.linspace(-0.25, 0.5, 1000).astype(dtype).tobytes()
    spec = seeded_constants._spec(dtype, original)
    assert spec == {"kind": dtype, "count": 1000, "low": -0.25, "high": 0.5}
    drawn = seeded_constants.seeded_bytes("layers.0.w_scales", spec)
    assert len(drawn) == len(original)
    values = np.frombuffer(drawn, dtype=dtype)
    assert values.min() >= -0.25 and values.max() <= 0.5 and np.unique(values).size > 100
    assert seeded_constants.seeded_bytes("layers.0.w_scales", spec) == drawn
    assert seeded_constants._spec("int32", np.arange(8, dtype=np.int32).tobytes()) is None
