"""The LLM benchmark of llm_bench.py in plain PyTorch eager (CUDA): the same Llama-3.2-1B
shape (dim 2048, 16 layers, 32 heads, 8 KV heads, FFN 8192, vocab 128256, untied output)
with random weights, timed as ours (prefill 128 and 512 tokens, decode at context 128 and
1024, each call reading its greedy token back).

    python3 benchmarks/llm_torch.py run OUT [--variants fp16,int4] [--tiny] [--device cpu]

run (stdlib and torch; nothing downloaded) draws seeded random weights on the device (std
0.02). fp16: dense float16 linears (F.linear) and activations. int4: every linear and the
output projection 4-bit weight-only, a scale and zero per 32 weights, through tinygemm
(torch._convert_weight_to_int4pack + _weight_int4pack_mm, on the CPU their _for_cpu forms;
checked against the dequantized matmul first), bfloat16 activations; the embedding dense.
The decoder (written here): RMSNorm, q/k/v, RoPE, GQA scaled_dot_product_attention over a
[1, kv_heads, 1152, head_dim] cache written in place, SwiGLU, the last token's logits, its
argmax read back (.item()) by every call. Timing as llm_ort.py: host clock after
torch.cuda.synchronize, an untimed prefill before the 128 and 512 runs, 64 new tokens (the
median of 63 decode steps), peak max_memory_allocated while timing; then the last decode
step's logits at context 128 and 1024 against one prefill of the whole sequence (exit 1
past TOLERANCE of the largest logit: a decode that misses its own key, 0.018 on the tiny
model, fails fp16's; the noise is 9e-4 for fp16, 7e-3 for int4's bfloat16 there, 3e-3 and
2.9e-2 at full size). Writes
OUT/llm_torch.json. --tiny: dim 256, 2 layers, 4 heads, 2 KV heads, FFN 512, vocab 1024
(a CPU check).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import torch
import torch.nn.functional as F

from llm_bench import CONTEXT as MAX_LEN  # the KV cache's length, as our export's
from llm_bench import GROUP, prompt_ids, timed_runs

LLAMA_1B = {"dim": 2048, "n_layers": 16, "n_heads": 32, "n_kv_heads": 8, "ffn": 8192,
            "vocab": 128256, "eps": 1e-5, "rope_theta": 500000.0}
TINY = dict(LLAMA_1B, dim=256, n_layers=2, n_heads=4, n_kv_heads=2, ffn=512, vocab=1024)
TOLERANCE = {"fp16": 1e-2, "int4": 5e-2}  # of the largest logit (run's cache check)
SDPA_GQA = tuple(int(v) for v in torch.__version__.split(".")[:2]) >= (2, 5)  # enable_gqa


class Unavailable(RuntimeError):
    """A variant this torch or device cannot run: reported, not fatal."""


# --- 4-bit weight-only linears through tinygemm -------------------------------------------
def quantize(w: torch.Tensor):
    """w [N, K] -> (q int32 [N, K] in 0..15, scales_and_zeros bf16 [K/GROUP, N, 2]), where
    w ~ (q - 8) * scale + zero as tinygemm dequantizes (min/max per group)."""
    n, k = w.shape
    g = w.float().reshape(n, k // GROUP, GROUP)
    lo, hi = g.amin(-1, keepdim=True), g.amax(-1, keepdim=True)
    scale = ((hi - lo) / 15).clamp(min=1e-8)
    q = ((g - lo) / scale).round().clamp(0, 15).to(torch.int32).reshape(n, k)
    return q, torch.cat([scale, lo + 8 * scale], -1).transpose(0, 1).contiguous().bfloat16()


PACK_FORMS = {  # the packing op's input: uint8 since torch 2.5 (CUDA), int32 before and on CPU
    "uint8 [N, K/2], even k high": lambda q: (q[:, ::2] << 4 | q[:, 1::2]).to(torch.uint8),
    "uint8 [N, K/2], even k low": lambda q: (q[:, 1::2] << 4 | q[:, ::2]).to(torch.uint8),
    "int32 [N, K]": lambda q: q.contiguous(),
}


def int4_linear_factory(device: torch.device):
    """(w [N, K] -> linear x [..., K] bf16 -> [..., N], its description) with the first
    packing form whose matmul matches the dequantized one on a small case (M 1 and 7)."""
    cpu = "_for_cpu" if device.type == "cpu" and hasattr(torch, "_weight_int4pack_mm_for_cpu") \
        else ""
    pack_op = getattr(torch, "_convert_weight_to_int4pack" + cpu, None)
    mm_op = getattr(torch, "_weight_int4pack_mm" + cpu, None)
    if pack_op is None or mm_op is None:
        raise Unavailable(f"torch {torch.__version__} has no _weight_int4pack_mm{cpu}")
    tiles = 8  # innerKTiles
    gen = torch.Generator(device=device).manual_seed(1)
    q, sz = quantize(torch.randn(256, 512, generator=gen, device=device) * 0.02)
    ref = ((q.float() - 8).reshape(256, -1, GROUP) * sz[..., :1].transpose(0, 1).float()
           + sz[..., 1:].transpose(0, 1).float()).reshape(256, 512)
    errors = []
    for form, prepare in PACK_FORMS.items():
        try:
            packed, err = pack_op(prepare(q), tiles), 0.0
            for m in (1, 7):
                x = torch.randn(m, 512, generator=gen, device=device).bfloat16()
                want = x.float() @ ref.t()
                got = mm_op(x, packed, GROUP, sz).float()
                err = max(err, float((got - want).abs().max() / want.abs().max()))
            if not err < 2e-2:
                raise RuntimeError(f"max relative error {err:.3g} against the dequantized matmul")
        except Exception as e:  # noqa: BLE001 - the next form, or unavailable
            errors.append(f"{pack_op.__name__}({form}): {(str(e) or repr(e)).splitlines()[0]}")
            print(f"  int4: {errors[-1][:400]}")  # the first line (dispatcher errors run on)
            continue
        print(f"  int4: {pack_op.__name__}({form}, innerKTiles={tiles}) + {mm_op.__name__}(x, "
              f"packed, {GROUP}, scales_and_zeros [K/{GROUP}, N, 2] bf16): {err:.2g} max relative "
              "error against the dequantized matmul")

        def make(w, prepare=prepare):
            wq, wsz = quantize(w)
            wp = pack_op(prepare(wq), tiles)
            return lambda x: mm_op(x.reshape(-1, x.shape[-1]), wp, GROUP, wsz).view(
                *x.shape[:-1], -1)
        return make, f"{pack_op.__name__}({form}) + {mm_op.__name__}"
    raise Unavailable("; ".join(errors))


# --- the decoder ---------------------------------------------------------------------------
def rope(x, cos, sin):
    half = x.shape[-1] // 2
    return x * cos + torch.cat([-x[..., half:], x[..., :half]], -1) * sin


def decode_attention(q, k, v):
    """One query row per head, q [1, H, 1, hd], over the cache's first L rows k, v [1, Hkv,
    L, hd], in three plain ops. With scaled_dot_product_attention at a new length each step,
    a decode step took 40 ms on the H100 (torch 2.11), a whole 128-token prefill 7 ms."""
    heads, kv_heads, hd = q.shape[1], k.shape[1], q.shape[-1]
    scores = q.reshape(1, kv_heads, heads // kv_heads, hd) @ k.transpose(-1, -2) * hd ** -0.5
    weights = scores.float().softmax(-1).to(q.dtype)
    return (weights @ v).reshape(1, heads, 1, hd)


class Llama:
    def __init__(self, p: dict, dtype, make_linear, device, seed: int = 0):
        self.p, self.dtype, self.hd = p, dtype, p["dim"] // p["n_heads"]
        gen = torch.Generator(device=device).manual_seed(seed)
        draw = lambda *size: torch.randn(*size, generator=gen, device=device) * 0.02  # noqa: E731
        d, kv = p["dim"], p["n_kv_heads"] * self.hd
        ones = lambda: torch.ones(d, device=device, dtype=dtype)  # noqa: E731
        self.embed, self.layers = draw(p["vocab"], d).to(dtype), []
        for _ in range(p["n_layers"]):
            layer = {name: make_linear(draw(n, k)) for name, n, k in (
                ("q", d, d), ("k", kv, d), ("v", kv, d), ("o", d, d),
                ("gate", p["ffn"], d), ("up", p["ffn"], d), ("down", d, p["ffn"]))}
            layer.update(norm1=ones(), norm2=ones(), cache=[torch.zeros(
                1, p["n_kv_heads"], MAX_LEN, self.hd, device=device, dtype=dtype) for _ in "kv"])
            self.layers.append(layer)
        self.norm, self.output = ones(), make_linear(draw(p["vocab"], d))
        inv = p["rope_theta"] ** -(torch.arange(0, self.hd, 2, device=device).float() / self.hd)
        angles = torch.outer(torch.arange(MAX_LEN, device=device).float(), inv).repeat(1, 2)
        self.cos, self.sin = angles.cos().to(dtype), angles.sin().to(dtype)

    def rms(self, x, weight):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.p["eps"])).to(
            self.dtype) * weight

    def forward(self, ids: torch.Tensor, pos: int):
        """ids [1, T] at positions pos.. (a prompt from 0, or one token) -> (the last token's
        logits [vocab], their argmax [1, 1] on the device)."""
        t, p = ids.shape[1], self.p
        assert pos == 0 or t == 1, "a multi-token call only from position 0"
        x, cos, sin = self.embed[ids], self.cos[pos:pos + t], self.sin[pos:pos + t]
        gqa = {"enable_gqa": True} if SDPA_GQA else {}
        for layer in self.layers:
            h = self.rms(x, layer["norm1"])
            q, k, v = (layer[n](h).view(1, t, -1, self.hd).transpose(1, 2) for n in "qkv")
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            kc, vc = layer["cache"]
            kc[:, :, pos:pos + t], vc[:, :, pos:pos + t] = k, v
            if t == 1:
                a = decode_attention(q, kc[:, :, :pos + 1], vc[:, :, :pos + 1])
            else:
                if not SDPA_GQA:
                    k, v = (c.repeat_interleave(q.shape[1] // k.shape[1], 1) for c in (k, v))
                a = F.scaled_dot_product_attention(q, k, v, is_causal=True, **gqa)
            x = x + layer["o"](a.transpose(1, 2).reshape(1, t, -1))
            h = self.rms(x, layer["norm2"])
            x = x + layer["down"](F.silu(layer["gate"](h)) * layer["up"](h))
        logits = self.output(self.rms(x[:, -1:], self.norm))[0, -1]
        return logits, logits.argmax().view(1, 1)


# --- the timed generation loop -------------------------------------------------------------
def generate(model: Llama, device, prompt: int, new: int, warmup: int) -> dict:
    sync = torch.cuda.synchronize if device.type == "cuda" else lambda: None
    ids = torch.tensor([prompt_ids(prompt, model.p["vocab"])], device=device)
    for _ in range(warmup):  # an untimed prefill of the same prompt
        model.forward(ids, 0)[1].item()
    sync()
    t0 = time.perf_counter()
    logits, token = model.forward(ids, 0)
    tokens, prefill_s, decode_ms = [token.item()], time.perf_counter() - t0, []
    for i in range(new - 1):
        sync()
        t0 = time.perf_counter()
        logits, token = model.forward(token, prompt + i)
        tokens.append(token.item())
        decode_ms.append(1e3 * (time.perf_counter() - t0))
    m = {"prompt_tokens": prompt, "new_tokens": new, "prefill_ms": 1e3 * prefill_s,
         "prefill_tok_s": prompt / prefill_s, "decode_ms": decode_ms,
         "decode_median_ms": statistics.median(decode_ms) if decode_ms else None,
         "tokens": tokens, "last_logits": logits.float()}
    print(f"prompt {prompt:5d}, {new:3d} new: prefill {m['prefill_tok_s']:9.1f} tok/s"
          + (f", decode median {1000 / m['decode_median_ms']:8.1f} tok/s" if decode_ms else ""),
          flush=True)
    return m


def check_cache(model: Llama, device, run: dict) -> float:
    """The last decode step's logits against one prefill of the prompt and the generated
    tokens, relative to the largest logit (as llm_ort.check_cache)."""
    ids = prompt_ids(run["prompt_tokens"], model.p["vocab"]) + run["tokens"][:-1]
    want = model.forward(torch.tensor([ids], device=device), 0)[0].float()
    return float((run.pop("last_logits") - want).abs().max() / want.abs().max())


def run_variant(variant: str, params: dict, device) -> dict:
    cuda = device.type == "cuda"
    if variant == "int4":
        dtype, (make_linear, kernel) = torch.bfloat16, int4_linear_factory(device)
    else:
        dtype, kernel = torch.float16, "F.linear float16"
        try:  # a CPU build without half matmul: float32, said in the output
            F.linear(*(torch.ones(n, 8, dtype=dtype, device=device) for n in (2, 4)))
        except RuntimeError as e:
            print(f"  no float16 linear on {device} ({e}): the fp16 variant runs float32")
            dtype, kernel = torch.float32, "F.linear float32 (no float16 matmul here)"
        make_linear = lambda w: (lambda x, w=w.to(dtype): F.linear(x, w))  # noqa: E731
    model = Llama(params, dtype, make_linear, device)
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(device)
    runs = {key: generate(model, device, prompt, n, warmup)
            for key, prompt, n, warmup in timed_runs()}
    peak = torch.cuda.max_memory_allocated(device) / 2**20 if cuda else None
    runs["prefill512"].pop("last_logits")
    checks = {k: check_cache(model, device, runs[k])
              for k in ("prefill128_decode_ctx128", "decode_ctx1024")}
    print("  KV cache check, last decode logits vs. one prefill: " + ", ".join(
        f"{k} {v:.3g}" for k, v in checks.items())
        + f" of the largest logit (limit {TOLERANCE[variant]})")
    return {"activations": str(dtype).replace("torch.", ""), "kernel": kernel, "runs": runs,
            "cache_check": checks, "peak_gpu_mib": peak}


def run(out: Path, variants: list[str], tiny: bool, device_name: str) -> None:
    device, params = torch.device(device_name), TINY if tiny else LLAMA_1B
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else \
        f"CPU {platform.machine()} ({torch.get_num_threads()} threads)"
    results = {"torch": torch.__version__, "device": name, "params": params,
               "group_size": GROUP, "sdpa_enable_gqa": SDPA_GQA, "variants": {}}
    with torch.inference_mode():
        for variant in variants:
            print(f"== {variant} on {name}, torch {torch.__version__}", flush=True)
            try:
                results["variants"][variant] = run_variant(variant, params, device)
            except Unavailable as e:
                print(f"  {variant} unavailable: {e}", flush=True)
                results["variants"][variant] = {"unavailable": str(e)}
    out.mkdir(parents=True, exist_ok=True)
    (out / "llm_torch.json").write_text(json.dumps(results, indent=1))
    report(results)
    failed = [k for k, v in results["variants"].items()
              if max(v.get("cache_check", {}).values(), default=0) > TOLERANCE[k]]
    if failed:
        raise SystemExit(f"llm_torch: KV cache check failed for {failed} (limits {TOLERANCE})")


def report(r: dict) -> None:
    size = "tiny" if r["params"]["dim"] != LLAMA_1B["dim"] else "llama1b"
    for variant, v in r["variants"].items():
        model = f"{size}_{r['params']['n_layers']}l_{variant}"
        if "unavailable" in v:
            print(f"{model}: unavailable: {v['unavailable']}")
            continue
        runs, peak = v["runs"], v["peak_gpu_mib"]
        print(f"{model} (torch {r['torch']} eager, {v['activations']} activations, "
              f"{v['kernel']}) on {r['device']}")
        for key, label in (("prefill128_decode_ctx128", "decode at context 128"),
                           ("decode_ctx1024", "decode at context 1024")):
            ms = runs[key]["decode_median_ms"]
            print(f"  {label:24s} {1000 / ms:8.1f} tok/s (median step {ms:.3f} ms)")
        for key, n in (("prefill128_decode_ctx128", 128), ("prefill512", 512),
                       ("decode_ctx1024", 1024)):
            print(f"  prefill {n:4d} tokens        {runs[key]['prefill_tok_s']:8.1f} tok/s "
                  f"({runs[key]['prefill_ms']:.2f} ms)")
        print(f"  peak GPU memory {'n/a' if peak is None else f'{peak:.0f} MiB'} "
              "(max_memory_allocated); KV cache check "
              + ", ".join(f"{c:.2g}" for c in v["cache_check"].values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--variants", default="fp16,int4", help="comma-separated: fp16, int4")
    r.add_argument("--tiny", action="store_true", help="dim 256, 2 layers (a CPU check)")
    r.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    args = parser.parse_args()
    variants = args.variants.split(",")
    if set(variants) - {"fp16", "int4"}:
        parser.error(f"unknown variants {set(variants) - {'fp16', 'int4'}}")
    run(args.out, variants, args.tiny, args.device)


if __name__ == "__main__":
    main()
