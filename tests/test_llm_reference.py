"""The LLM ops' goldens, cross-checked.

For each ExecuTorch custom op (et_vk.* and llama.update_cache) the reference
implementation torch runs is compared with an independent plain-PyTorch formula, and the
harness (the generated shaders) with both. Also: SDPA's two QK routes agree on the same
inputs, and an in-place op writes back into the caller's tensor.
"""

import pytest
import torch

from codegen.graph.errors import OpError
from codegen.executors.call import torch_op
from codegen.executors import harness
from codegen.graph.inputs import SymInt

G = torch.Generator().manual_seed(5)


def randn(*shape):
    return torch.randn(*shape, generator=G)


# --- independent formulas ------------------------------------------------------------

def rope_formula(xq, xk, cos, sin, start_pos):
    s = xq.shape[1]
    c = cos[start_pos:start_pos + s][None, :, None, :]
    sn = sin[start_pos:start_pos + s][None, :, None, :]

    def rot(x):
        h = x.shape[-1] // 2
        x1, x2 = x[..., :h], x[..., h:]
        return torch.cat([x1 * c[..., :h] - x2 * sn[..., :h], x2 * c[..., h:] + x1 * sn[..., h:]], -1)

    return rot(xq), rot(xk)


def sdpa_formula(q, k, v, mask=None, scale=None):
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)


def rms_norm_formula(x, weight, eps):
    return torch.nn.functional.rms_norm(x, (x.shape[-1],), weight, eps)


def embedding_q4gsw_formula(weight, scales, group_size, indices, is_linear_weight=False):
    rows = []
    for r in range(weight.shape[0]):
        vals = []
        for byte in weight[r].tolist():
            hi, lo = (byte >> 4) - 8, (byte & 0xF) - 8
            vals += [lo, hi] if is_linear_weight else [hi, lo]
        rows.append([v * float(scales[r, c // group_size]) for c, v in enumerate(vals)])
    table = torch.tensor(rows, dtype=torch.float32)
    return table[indices]


def update_cache_formula(value, cache, start_pos):
    out = cache.clone()
    out[:, start_pos:start_pos + value.shape[1]] = value
    return out


def et(name):
    return torch_op(name)


# --- reference vs formula vs harness ---------------------------------------------------

@pytest.mark.parametrize("start_pos", [0, 7])
def test_rope_hf(start_pos):
    xq, xk = randn(1, 3, 4, 16), randn(1, 3, 2, 16)
    cos, sin = torch.rand(16, 16, generator=G) * 2 - 1, torch.rand(16, 16, generator=G) * 2 - 1
    ref = et("et_vk.apply_rotary_emb_hf.default")(xq, xk, cos, sin, start_pos)
    formula = rope_formula(xq, xk, cos, sin, start_pos)
    got = harness.call("et_vk.apply_rotary_emb_hf.default", xq, xk, cos, sin, start_pos)
    for r, f, g in zip(ref, formula, got):
        torch.testing.assert_close(r, f, atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(g, f, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("with_mask, scale", [(False, None), (True, 0.3)])
def test_sdpa(with_mask, scale):
    q, k, v = randn(1, 2, 6, 8), randn(1, 2, 9, 8), randn(1, 2, 9, 4)
    mask = randn(1, 1, 6, 9) if with_mask else None
    ref = et("et_vk.sdpa.default")(q, k, v, mask, scale)
    formula = sdpa_formula(q, k, v, mask, scale)
    got = harness.call("et_vk.sdpa.default", q, k, v, mask, scale)
    torch.testing.assert_close(ref, formula, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(got, formula, atol=1e-4, rtol=1e-4)


def test_rms_norm():
    x, w = randn(2, 5, 48), randn(48)
    ref = et("et_vk.rms_norm.default")(x, w, 1e-6)
    formula = rms_norm_formula(x, w, 1e-6)
    got = harness.call("et_vk.rms_norm.default", x, w, 1e-6)
    torch.testing.assert_close(ref, formula, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(got, formula, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("linear", [False, True])
def test_embedding_q4gsw(linear):
    weight = torch.randint(0, 256, (12, 8), generator=G, dtype=torch.uint8)
    scales = torch.rand(12, 4, generator=G)
    indices = torch.tensor([[3, 0, 11], [5, 5, 1]])
    ref = et("et_vk.embedding_q4gsw.default")(weight, scales, 4, indices, linear)
    formula = embedding_q4gsw_formula(weight, scales, 4, indices, linear)
    got = harness.call("et_vk.embedding_q4gsw.default", weight, scales, 4, indices, linear)
    torch.testing.assert_close(ref, formula, atol=0, rtol=0)
    torch.testing.assert_close(got, formula, atol=1e-6, rtol=1e-6)


def test_update_cache_writes_back_in_place():
    value, cache = randn(1, 2, 2, 4), randn(1, 8, 2, 4)
    want = update_cache_formula(value, cache, 3)
    ref_cache = cache.clone()
    et("llama.update_cache.default")(value, ref_cache, 3)
    assert torch.equal(ref_cache, want)
    mine = cache.clone()
    out = harness.call("llama.update_cache.default", value, mine, 3)
    assert out.shape == (1,)
    assert torch.equal(mine, want), "the harness must write the cache back into the caller's tensor"


def test_update_cache_decode_without_rebuild():
    """Build for a 4-token prefill, then decode one token at a time by changing the SymInt."""
    cache = torch.zeros(1, 8, 2, 4)
    prefill = randn(1, 4, 2, 4)
    node = harness.build("llama.update_cache.default", prefill, cache, SymInt(0))
    node.run(node.call.rebind((prefill, cache, SymInt(0)), {}))
    want = update_cache_formula(prefill, torch.zeros(1, 8, 2, 4), 0)
    for pos in (4, 5, 6):
        token = randn(1, 1, 2, 4)
        node.run(node.call.rebind((token, cache, SymInt(pos)), {}))
        want = update_cache_formula(token, want, pos)
    assert torch.equal(cache, want)


def test_build_time_int_cannot_change():
    node = harness.build("aten.select_copy.int", randn(3, 4), 0, 1)
    with pytest.raises(OpError, match="dim is a build-time value"):
        node.run(node.call.rebind((randn(3, 4), 1, 1), {}))


# --- SDPA routes -------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(1, 2, 32, 32, 32), (2, 3, 20, 12, 8)])
def test_sdpa_qk_routes_agree(shape):
    b, h, sq, skv, d = shape
    q, k, v = randn(b, h, sq, d), randn(b, h, skv, d), randn(b, h, skv, d)
    mask = randn(1, h, sq, skv)
    outs = {}
    for kernel in ("qk_per_row", "qk_per_entry"):
        node = harness.build_forced("et_vk.sdpa.default", (kernel,), q, k, v, mask)
        assert kernel in node.routes
        outs[kernel] = node.run()
    torch.testing.assert_close(outs["qk_per_row"], outs["qk_per_entry"], atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(outs["qk_per_row"], sdpa_formula(q, k, v, mask), atol=1e-4, rtol=1e-4)


def test_sdpa_routes_follow_the_occupancy_floor():
    small = harness.build("et_vk.sdpa.default", randn(1, 2, 32, 32), randn(1, 2, 32, 32),
                          randn(1, 2, 32, 32))
    assert small.routes[0] == "qk_per_entry"
    from codegen.specs.sdpa import sdpa

    rows = sdpa.OCCUPANCY_FLOOR  # B * H * Sq exactly at the floor -> per-row
    below = harness.build("et_vk.sdpa.default", randn(1, 8, rows // 8 - 1, 4),
                          randn(1, 8, 2, 4), randn(1, 8, 2, 4))
    assert below.routes[0] == "qk_per_entry"
    big = harness.build("et_vk.sdpa.default", randn(1, 8, rows // 8, 4), randn(1, 8, 2, 4),
                        randn(1, 8, 2, 4))
    assert big.routes[0] == "qk_per_row"
