"""benchmarks/seeded_weights.py: model files travel without their large weights, float16
files (`model_latency.py pack --fp16`) too, and come back byte for byte."""

import math
import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import seeded_weights  # noqa: E402


def _model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.GELU(),
                               torch.nn.Linear(256, 64)).eval()


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_half_and_single_files_strip_and_restore_byte_for_byte(dtype, tmp_path):
    model = _model()
    weights = seeded_weights.reseed(model)
    assert sorted(weights) == ["0.weight", "2.weight"]  # 128 KiB and 64 KiB; biases stay
    x = torch.randn(2, 128)
    if dtype == "float16":
        model, x = model.half(), x.half()
    pt, onnx = tmp_path / "m.pt", tmp_path / "m.onnx"
    with torch.no_grad():
        torch.jit.trace(model, (x,)).save(str(pt))
        torch.onnx.export(model, (x,), str(onnx), dynamo=False, opset_version=17)
    originals = {p.name: p.read_bytes() for p in (pt, onnx)}
    files = {p.name: seeded_weights.strip(p, weights, dtype) for p in (pt, onnx)}
    for name, entry in files.items():
        assert entry["dtype"] == dtype
        assert {hole[1] for hole in entry["holes"]} == set(weights), name  # both cut
        itemsize = 2 if dtype == "float16" else 4
        cut = sum(itemsize * math.prod(weights[hole[1]]["shape"]) for hole in entry["holes"])
        assert cut >= (96 if dtype == "float16" else 192) * 1024
        assert (tmp_path / f"{name}.kept").stat().st_size == len(originals[name]) - cut
    seeded_weights.write_manifest(tmp_path, "m", weights, files)
    seeded_weights.restore_model(tmp_path, "m", tmp_path / "out")
    for name, data in originals.items():
        assert (tmp_path / "out" / name).read_bytes() == data


def test_a_half_file_holds_no_float32_weights_and_a_bad_dtype_fails(tmp_path):
    model = _model()
    weights = seeded_weights.reseed(model)
    pt = tmp_path / "m.pt"
    torch.jit.trace(model.half(), (torch.randn(2, 128).half(),)).save(str(pt))
    assert seeded_weights.strip(pt, weights, "float32")["holes"] == []  # looked for as float32
    with pytest.raises(ValueError, match=r"seeded weight 0.weight: dtype is not one a file "
                                         r"stores them in \(got 'bfloat16', expected one of "
                                         r"float32, float16\)"):
        seeded_weights.strip(Path(f"{pt}.kept"), weights, "bfloat16")
