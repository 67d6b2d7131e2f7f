"""Small models built from the target architectures of the seed (no downloads,
deterministic random init), for the end-to-end tests and the demo.

Each factory returns `(model, example_inputs)`, the form `opgen export
tests/e2e_models.py:<factory>` takes.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

# What "matches eager" means (element-wise and relative to the output's scale) lives in
# codegen.et.compare, shared with `opgen run --reference` and benchmarks/gpu_e2e.py.
from codegen.et.compare import ATOL, RTOL, SCALED_ERROR, eager_mismatch  # noqa: F401


def _init(model: nn.Module, seed: int) -> nn.Module:
    """Deterministic weights, and non-trivial batch-norm statistics."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.randn(p.shape, generator=g) * (0.3 if p.dim() > 1 else 0.1))
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
    return model.eval()


def _inputs(seed: int, *shapes) -> tuple:
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(s, generator=g) for s in shapes)


# --- CNN stem (ResNet / MODNet backbone) ----------------------------------------------------
class CnnStem(nn.Module):
    """conv -> batch_norm -> relu -> max_pool. The Vulkan preprocessing folds the
    batch_norm into the conv and fuses the relu (et_vk.conv_with_clamp); with
    `pool_bn` a second batch_norm follows the pool, where nothing can fold it, so the
    graph keeps a real aten._native_batch_norm_legit_no_training."""

    def __init__(self, pool_bn: bool = False):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.pool = nn.MaxPool2d(3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(16) if pool_bn else nn.Identity()

    def forward(self, x):
        return self.bn2(self.pool(torch.relu(self.bn(self.conv(x)))))


def cnn_stem():
    return _init(CnnStem(), 1), _inputs(11, (1, 3, 32, 32))


def cnn_stem_pool_bn():
    return _init(CnnStem(pool_bn=True), 1), _inputs(11, (1, 3, 32, 32))


# --- DaViT stem (Florence-2 vision encoder) --------------------------------------------------
class DavitStem(nn.Module):
    """7x7/4 patch embed -> 2x2/2 strided downsample -> pad to a multiple of the window
    size -> (window attention would run here) -> crop the padding off."""

    def __init__(self, window: int = 4):
        super().__init__()
        self.window = window
        self.patch_embed = nn.Conv2d(3, 16, 7, stride=4, padding=3)
        self.downsample = nn.Conv2d(16, 32, 2, stride=2)

    def forward(self, x):
        x = self.downsample(self.patch_embed(x))
        h, w = x.shape[-2:]
        pad_h, pad_w = (-h) % self.window, (-w) % self.window
        x = F.pad(x, (0, pad_w, 0, pad_h))
        return x[:, :, :h, :w] + x[:, :, :h, :w]


def davit_stem():
    return _init(DavitStem(), 2), _inputs(12, (1, 3, 56, 56))


# --- decoder (Real-ESRGAN / SAM FPN / DPT head) ---------------------------------------------
class Decoder(nn.Module):
    """transposed conv 2x -> leaky_relu -> nearest 2x -> conv -> leaky_relu -> bilinear
    resize to a non-integer ratio."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1)
        self.conv = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x):
        x = F.leaky_relu(self.up(x), 0.1)
        x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        x = F.leaky_relu(self.conv(x), 0.2)
        return F.interpolate(x, size=(40, 40), mode="bilinear", align_corners=False)


def decoder():
    return _init(Decoder(), 3), _inputs(13, (1, 16, 8, 8))


# --- detection head (YOLO Detect) ------------------------------------------------------------
class DetectHead(nn.Module):
    """conv -> relu -> 1x1 conv -> split_with_sizes into box / objectness / classes ->
    sigmoid; boxes decoded as sigmoid * 2 - 0.5 (no concatenation)."""

    def __init__(self, num_classes: int = 3):
        super().__init__()
        self.sizes = [4, 1, num_classes]
        self.conv = nn.Conv2d(16, 32, 3, padding=1)
        self.pred = nn.Conv2d(32, sum(self.sizes), 1)

    def forward(self, x):
        box, obj, cls = torch.split(self.pred(torch.relu(self.conv(x))), self.sizes, dim=1)
        return box.sigmoid() * 2.0 - 0.5, obj.sigmoid(), cls.sigmoid()


def detect_head():
    return _init(DetectHead(), 4), _inputs(14, (1, 16, 10, 10))


# --- attention block (Qwen3-style core: QK-norm, HF RoPE, SDPA) ---------------------------
class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.weight


def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def hf_rope(xq, xk, freqs_cos, freqs_sin):
    """HuggingFace apply_rotary_pos_emb (rotate-half), in the form ExecuTorch's Vulkan
    partitioner fuses into et_vk.apply_rotary_emb_hf."""
    cos, sin = freqs_cos.unsqueeze(1), freqs_sin.unsqueeze(1)
    rotary_dim = cos.shape[-1]
    q_rot, q_pass = xq[..., :rotary_dim], xq[..., rotary_dim:]
    k_rot, k_pass = xk[..., :rotary_dim], xk[..., rotary_dim:]
    q = torch.cat([(q_rot.float() * cos) + (_rotate_half(q_rot.float()) * sin), q_pass], dim=-1)
    k = torch.cat([(k_rot.float() * cos) + (_rotate_half(k_rot.float()) * sin), k_pass], dim=-1)
    return q.type_as(xq), k.type_as(xk)


class AttentionBlock(nn.Module):
    """q, k, v [B, S, H, D] -> per-head RMSNorm of q and k -> rotate-half RoPE ->
    [B, H, S, D] -> scaled-dot-product attention -> [B, S, H, D]."""

    def __init__(self, seq: int = 8, head_dim: int = 32):
        super().__init__()
        self.q_norm = RMSNorm(head_dim)
        self.k_norm = RMSNorm(head_dim)
        inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        freqs = torch.outer(torch.arange(seq).float(), inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", emb.cos())
        self.register_buffer("sin", emb.sin())

    def forward(self, q, k, v):
        q, k = self.q_norm(q), self.k_norm(k)
        q, k = hf_rope(q, k, self.cos, self.sin)
        q, k, v = (t.permute(0, 2, 1, 3) for t in (q, k, v))
        out = torch.ops.et_vk.sdpa(q, k, v, None, None)
        return out.permute(0, 2, 1, 3)


def attention_block():
    import executorch.backends.vulkan.custom_ops_lib  # noqa: F401  (torch.ops.et_vk.sdpa)

    return _init(AttentionBlock(), 5), _inputs(15, (1, 8, 4, 32), (1, 8, 4, 32), (1, 8, 4, 32))


class OddRotaryDim(nn.Module):
    """Rotate-half RoPE on 7 of each head's 16 entries (odd rotary dims exist in no model,
    but eager computes them). The Vulkan lowering fuses it into et_vk.apply_rotary_emb_hf
    after partitioning, with [S, 7] tables, which the spec rejects (an odd rotary dim): a
    delegated node that would fail at load, which export and coverage refuse."""

    def __init__(self, seq: int = 6, rotary_dim: int = 7):
        super().__init__()
        angles = torch.outer(torch.arange(seq).float(), torch.linspace(0.1, 1.0, rotary_dim))
        self.register_buffer("cos", angles.cos())
        self.register_buffer("sin", angles.sin())

    def forward(self, q, k):
        return hf_rope(q, k, self.cos, self.sin)


def odd_rotary_dim():
    return OddRotaryDim().eval(), _inputs(17, (1, 6, 4, 16), (1, 6, 2, 16))


# --- a call a spec's guard rejects (export keeps it on ExecuTorch's CPU kernels) ----------
class PoolCeilMode(nn.Module):
    """The same max pool twice: floor mode, which the max_pool2d spec serves, and ceil
    mode, which its guard rejects (`ceil_mode is not supported`)."""

    def __init__(self):
        super().__init__()
        self.floor = nn.MaxPool2d(2, stride=2)
        self.ceil = nn.MaxPool2d(2, stride=2, ceil_mode=True)

    def forward(self, x):
        return self.floor(x), self.ceil(x)


def pool_ceil_mode():
    return PoolCeilMode().eval(), _inputs(16, (1, 2, 5, 5))


# --- Hugging Face architectures (transformers classes from small configs, random weights,
# no hub download) -------------------------------------------------------------------------
class _Logits(nn.Module):
    """An image classifier called as the exporter calls it: pixels in, logits out."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, pixel_values):
        return self.model(pixel_values=pixel_values).logits


def hf_resnet():
    """transformers' ResNet (basic blocks): convs with folded batch norm, max pool,
    global average pool (mean.dim) and the linear classifier."""
    from transformers import ResNetConfig, ResNetForImageClassification

    torch.manual_seed(0)
    config = ResNetConfig(embedding_size=16, hidden_sizes=[16, 24, 32, 48], depths=[1, 1, 1, 1],
                          layer_type="basic", num_labels=10)
    return _Logits(ResNetForImageClassification(config)).eval(), _inputs(20, (1, 3, 64, 64))


def hf_resnet_as_is():
    """transformers' ResNetModel as a user passes it, unwrapped: its forward returns a
    ModelOutput (BaseModelOutputWithPoolingAndNoAttention: last_hidden_state and
    pooler_output), which torch.export flattens into two outputs."""
    from transformers import ResNetConfig, ResNetModel

    torch.manual_seed(0)
    config = ResNetConfig(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                          layer_type="basic")
    return ResNetModel(config).eval(), _inputs(20, (1, 3, 32, 32))


def hf_mobilenet_v2():
    """transformers' MobileNetV2: depthwise and pointwise convs with ReLU6
    (conv_with_clamp), TF-style padding, residual adds, mean.dim and linear. A wider
    initializer range than the default keeps the logits away from zero (about 0.4)."""
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    torch.manual_seed(0)
    config = MobileNetV2Config(depth_multiplier=0.35, image_size=64, num_labels=10,
                               initializer_range=0.2)
    return _Logits(MobileNetV2ForImageClassification(config)).eval(), _inputs(21, (1, 3, 64, 64))


def hf_convnext():
    """transformers' ConvNeXt: patchify stem conv, depthwise 7x7 convs, channels-last layer
    norms, GELU MLPs (linear), layer scale, downsample convs, mean.dim and the classifier."""
    from transformers import ConvNextConfig, ConvNextForImageClassification

    torch.manual_seed(0)
    config = ConvNextConfig(num_channels=3, patch_size=4, hidden_sizes=[16, 24, 32, 48],
                            depths=[1, 1, 1, 1], num_labels=10, image_size=64)
    return _Logits(ConvNextForImageClassification(config)).eval(), _inputs(22, (1, 3, 64, 64))


def hf_vit():
    """transformers' ViT: patch-embed conv, class token (cat), position embeddings,
    pre-norm attention blocks (layer norm, linear q/k/v, softmax attention) and GELU MLPs."""
    from transformers import ViTConfig, ViTForImageClassification

    torch.manual_seed(0)
    config = ViTConfig(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=2,
                       num_attention_heads=2, intermediate_size=64, num_labels=10)
    return _Logits(ViTForImageClassification(config)).eval(), _inputs(23, (1, 3, 32, 32))


def hf_swin():
    """transformers' Swin: windowed attention with a relative position bias (a gathered
    table), shifted windows (torch.roll: index_select over (arange + shift) fmod N) and
    their attention mask (built in the graph by slice_scatter of filled slices), patch
    merging between the stages."""
    from transformers import SwinConfig, SwinForImageClassification

    torch.manual_seed(0)
    config = SwinConfig(image_size=32, patch_size=2, embed_dim=16, depths=[2, 2],
                        num_heads=[2, 4], window_size=4, num_labels=10)
    model = _drawn_bias_tables(SwinForImageClassification(config))
    return _Logits(model).eval(), _inputs(31, (1, 3, 32, 32))


def _drawn_bias_tables(model: nn.Module) -> nn.Module:
    """The model with its relative position bias tables drawn (seeded by the caller):
    transformers starts them at zero, and with zero tables any gathered index gives the
    same logits, so the index arithmetic would go unchecked."""
    with torch.no_grad():
        for module in model.modules():
            if hasattr(module, "relative_position_bias_table"):
                module.relative_position_bias_table.normal_()
    return model


def hf_beit():
    """transformers' BEiT: a relative position bias in every layer, its index computed in
    the graph from int64 coordinates (arange, meshgrid, an integer sum.dim_IntList over the
    last dim), layer scale and mean pooling."""
    from transformers import BeitConfig, BeitForImageClassification

    torch.manual_seed(0)
    config = BeitConfig(image_size=32, patch_size=4, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64, num_labels=10,
                        use_relative_position_bias=True)
    model = _drawn_bias_tables(BeitForImageClassification(config))
    return _Logits(model).eval(), _inputs(32, (1, 3, 32, 32))


class _SiglipPooled(nn.Module):
    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, pixel_values):
        return self.model(pixel_values=pixel_values).pooler_output


def hf_siglip():
    """transformers' SigLIP vision tower: patch embeds, encoder blocks with tanh-GELU MLPs
    and the attention-pooling head (a learned probe attending over the patches)."""
    from transformers import SiglipVisionConfig, SiglipVisionModel

    torch.manual_seed(0)
    config = SiglipVisionConfig(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=2,
                                num_attention_heads=2, intermediate_size=64)
    return _SiglipPooled(SiglipVisionModel(config)).eval(), _inputs(24, (1, 3, 32, 32))


class _LastHidden(nn.Module):
    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, pixel_values):
        return self.model(pixel_values)


def hf_davit():
    """Florence-2's DaViT vision tower (transformers' Florence2VisionBackbone): conv patch
    embeds with layer norms, window attention (padding to whole windows), channel
    attention, GELU MLPs and downsample convs."""
    from transformers import Florence2VisionConfig
    from transformers.models.florence2.modeling_florence2 import Florence2VisionBackbone

    torch.manual_seed(0)
    config = Florence2VisionConfig(depths=(1, 1), patch_size=(7, 3), patch_stride=(4, 2),
                                   patch_padding=(3, 1), patch_prenorm=(False, True),
                                   embed_dim=(16, 32), num_heads=(2, 4), num_groups=(2, 4),
                                   window_size=3, drop_path_rate=0.0)
    return _LastHidden(Florence2VisionBackbone(config)).eval(), _inputs(25, (1, 3, 40, 40))


class _CausalLogits(nn.Module):
    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).logits


def hf_llama():
    """transformers' LlamaForCausalLM at a small config: token embedding, RMS norms, rotary
    position embeddings, causal grouped-query attention, SiLU-gated MLPs and the LM head."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    ids = torch.randint(0, 64, (1, 8), generator=torch.Generator().manual_seed(26))
    return _CausalLogits(LlamaForCausalLM(config)).eval(), (ids,)


def hf_stablelm():
    """transformers' StableLmForCausalLM at a small config: partial rotary embeddings
    (partial_rotary_factor 0.25: a quarter of each head rotated, the rest passed through),
    which the Vulkan lowering fuses into et_vk.apply_rotary_emb_hf with [B, S, rotary_dim]
    cos/sin tables and [B, H, S, D] queries and keys; layer norms, SiLU-gated MLPs."""
    from transformers import StableLmConfig, StableLmForCausalLM

    torch.manual_seed(0)
    config = StableLmConfig(vocab_size=64, hidden_size=64, intermediate_size=96,
                            num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                            max_position_embeddings=64, partial_rotary_factor=0.25)
    ids = torch.randint(0, 64, (1, 8), generator=torch.Generator().manual_seed(27))
    return _CausalLogits(StableLmForCausalLM(config)).eval(), (ids,)


def hf_phi3():
    """transformers' Phi3ForCausalLM at a small config with partial_rotary_factor 0.5 (the
    rotary layout of Phi-3's partial-rotary variants): fused QKV and gate-up projections,
    RMS norms, et_vk.apply_rotary_emb_hf on half of each head."""
    from transformers import Phi3Config, Phi3ForCausalLM

    torch.manual_seed(0)
    config = Phi3Config(vocab_size=64, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                        original_max_position_embeddings=64, partial_rotary_factor=0.5,
                        pad_token_id=0)
    ids = torch.randint(0, 64, (1, 8), generator=torch.Generator().manual_seed(28))
    return _CausalLogits(Phi3ForCausalLM(config)).eval(), (ids,)


class _CausalLogitsWithCache(nn.Module):
    """A causal LM with its KV cache on, as a model author exports a prefill or a decode
    step: token ids (and, for a decode step, the past keys and values of each layer) in;
    the logits and the cache after this step (keys and values of each layer) out. Without
    a past, transformers starts each layer's cache as empty [0] tensors (lifted as
    constants) and concatenates this step's keys and values to them."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_ids, *past):
        from transformers import DynamicCache

        cache = DynamicCache()
        for layer in range(len(past) // 2):
            cache.update(past[2 * layer], past[2 * layer + 1], layer)
        out = self.model(input_ids=input_ids, past_key_values=cache, use_cache=True)
        present = out.past_key_values
        return (out.logits, *[t for layer in present.layers for t in (layer.keys, layer.values)])


def hf_llama_kv():
    """hf_llama's model with its KV cache: a decode step of 2 tokens after a past of 6
    (the past keys and values of each layer are inputs, concatenated with this step's;
    the rotary positions and the causal mask start at the past's length)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    g = torch.Generator().manual_seed(30)
    ids = torch.randint(0, 64, (1, 2), generator=g)
    past = [torch.randn(1, 2, 6, 8, generator=g) for _ in range(2 * config.num_hidden_layers)]
    return _CausalLogitsWithCache(LlamaForCausalLM(config)).eval(), (ids, *past)


class _Hidden(nn.Module):
    """An encoder called as the exporter calls it: its one input (token ids, audio samples,
    mel features) in, last hidden state out."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(ids).last_hidden_state


def hf_t5_encoder():
    """transformers' T5EncoderModel at a small config: token embedding, RMS norms, attention
    with T5's relative position bias, its buckets computed in the graph from int64 relative
    positions (abs, lt/gt, a float log of the distance cast back to int64, minimum, where)
    and ReLU MLPs. The bias table starts random (transformers draws it), so the gathered
    buckets move the output."""
    from transformers import T5Config, T5EncoderModel

    torch.manual_seed(0)
    config = T5Config(vocab_size=128, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4)
    model = T5EncoderModel(config)
    bias = model.encoder.block[0].layer[0].SelfAttention.relative_attention_bias.weight
    assert bias.abs().max() > 0, "T5's relative attention bias table starts at zero"
    # 12 tokens: relative distances up to 11, past max_exact (8), take the log buckets
    ids = torch.randint(0, 128, (1, 12), generator=torch.Generator().manual_seed(27))
    return _Hidden(model).eval(), (ids,)


def hf_bloom():
    """transformers' BloomForCausalLM at a small config: word embeddings with their layer
    norm, ALiBi attention biases (slopes from pow.Tensor_Tensor of a 0-d float base to
    int32 powers), fused query/key/value linears, causal masked softmax attention and
    GELU MLPs. Without the KV cache (as hf_llama; hf_bloom_kv has it)."""
    from transformers import BloomConfig, BloomForCausalLM

    torch.manual_seed(0)
    config = BloomConfig(vocab_size=128, hidden_size=64, n_layer=2, n_head=4)
    ids = torch.randint(0, 128, (1, 12), generator=torch.Generator().manual_seed(27))
    return _CausalLogits(BloomForCausalLM(config)).eval(), (ids,)


def hf_bloom_kv():
    """hf_bloom's model exported with its KV cache on, as a prefill: no past, so
    transformers starts each layer's keys and values as empty [0] tensors, concatenated
    with the prompt's; the logits and the filled cache are the outputs. (ExecuTorch prunes
    the empty tensors from the cats; `codegen.et.lowering` drops the constants left unread,
    which otherwise failed the load with "ExecuTorch error 35".)"""
    from transformers import BloomConfig, BloomForCausalLM

    torch.manual_seed(0)
    config = BloomConfig(vocab_size=128, hidden_size=64, n_layer=2, n_head=4)
    ids = torch.randint(0, 128, (1, 12), generator=torch.Generator().manual_seed(27))
    return _CausalLogitsWithCache(BloomForCausalLM(config)).eval(), (ids,)


def hf_levit():
    """transformers' LeViT: a conv stem (batch norms folded into the convs), attention and
    MLP blocks whose linears are followed by BatchNorm1d (batch norm on [N, C], kept in
    the graph), attention biases gathered by index, hardswish, downsampling attention
    (subsampled queries) and the distilled classifier heads (mean over the tokens). The
    batch norms get drawn running statistics (transformers starts them at 0 and 1) and a
    wider initializer range keeps the logits away from zero."""
    from transformers import LevitConfig, LevitForImageClassification

    torch.manual_seed(0)
    config = LevitConfig(image_size=64, hidden_sizes=[32, 48, 64], num_attention_heads=[1, 2, 2],
                         depths=[1, 1, 1], key_dim=[8, 8, 8], num_labels=10,
                         initializer_range=0.2)
    model = LevitForImageClassification(config)
    g = torch.Generator().manual_seed(28)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
    return _Logits(model).eval(), _inputs(29, (1, 3, 64, 64))


class _CtcLogits(nn.Module):
    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_values):
        return self.model(input_values).logits


def hf_wav2vec2():
    """transformers' Wav2Vec2ForCTC at a small config: the feature encoder's rank-3 convs
    (one channel, kernel 10 stride 5, then kernel 3 stride 2) with a group norm on the
    first, the feature projection, the positional conv (grouped, even kernel, its weight
    norm computed in the graph from weight_g and weight_v, the extra frame sliced off),
    GELU, post-norm attention layers and the CTC head. 400 samples give 19 frames."""
    from transformers import Wav2Vec2Config, Wav2Vec2ForCTC

    torch.manual_seed(0)
    config = Wav2Vec2Config(vocab_size=16, hidden_size=32, num_hidden_layers=2,
                            num_attention_heads=2, intermediate_size=64, conv_dim=(16, 16, 16),
                            conv_stride=(5, 2, 2), conv_kernel=(10, 3, 3),
                            num_conv_pos_embeddings=8, num_conv_pos_embedding_groups=4)
    return _CtcLogits(Wav2Vec2ForCTC(config)).eval(), _inputs(30, (1, 400))


def hf_whisper_encoder():
    """transformers' WhisperEncoder at a small config: two rank-3 convs over the mel
    frames (kernel 3, the second stride 2) with GELU, learned positions added, pre-norm
    attention layers and the final layer norm. Whisper takes exactly
    2 * max_source_positions frames: 32 frames of 8 mel bins."""
    from transformers import WhisperConfig
    from transformers.models.whisper.modeling_whisper import WhisperEncoder

    torch.manual_seed(0)
    config = WhisperConfig(num_mel_bins=8, d_model=32, encoder_layers=2,
                           encoder_attention_heads=2, encoder_ffn_dim=64,
                           max_source_positions=16)
    return _Hidden(WhisperEncoder(config)).eval(), _inputs(31, (1, 8, 32))


class _HiddenAndPooled(nn.Module):
    """A text encoder called as the exporter calls it: token ids in, its last hidden state
    and pooled output out."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, ids):
        out = self.model(input_ids=ids)
        return out.last_hidden_state, out.pooler_output


def hf_clip_text():
    """transformers' CLIPTextModel at a small config: token and position embeddings, a
    causal mask, pre-norm attention layers with quick-GELU MLPs, the final layer norm, and
    the pooling at the end-of-text token. With eos_token_id 2 (the released CLIP configs)
    transformers pools at the argmax of the int64 token ids (argmax, then index.Tensor with
    an arange): the end-of-text token holds the largest id. Both rows put it at a
    different position."""
    from transformers import CLIPTextConfig, CLIPTextModel

    torch.manual_seed(0)
    config = CLIPTextConfig(vocab_size=128, hidden_size=64, intermediate_size=128,
                            num_hidden_layers=2, num_attention_heads=4,
                            max_position_embeddings=16, bos_token_id=0, pad_token_id=1,
                            eos_token_id=2)
    ids = torch.randint(3, 127, (2, 12), generator=torch.Generator().manual_seed(32))
    ids[0, 7] = ids[1, 11] = 127  # the end-of-text token: the largest id in its row
    return _HiddenAndPooled(CLIPTextModel(config)).eval(), (ids,)


class _Exported(nn.Module):
    """A PT2E-converted GraphModule behind a plain module (the exporter calls eval(),
    which torchao refuses on the converted module itself)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)


def pt2e_qcs4w_mlp():
    """A two-layer MLP quantized by ExecuTorch's VulkanQuantizer, weight-only 4-bit per
    channel (PT2E): the Vulkan lowering fuses each dequantize + linear into
    et_vk.linear_qcs4w over weights it packs two to a byte (the bias as an add). Compared
    with the quantized model run eagerly."""
    from executorch.backends.vulkan.quantizer.vulkan_quantizer import (
        VulkanQuantizer, get_symmetric_quantization_config)
    from torchao.quantization.pt2e import allow_exported_model_train_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 48), nn.ReLU(), nn.Linear(48, 20, bias=False)).eval()
    inputs = _inputs(33, (3, 64))
    quantizer = VulkanQuantizer().set_global(
        get_symmetric_quantization_config(is_dynamic=False, weight_bits=4))
    prepared = prepare_pt2e(torch.export.export(model, inputs).module(), quantizer)
    prepared(*inputs)
    converted = convert_pt2e(prepared)
    allow_exported_model_train_eval(converted)
    return _Exported(converted), inputs


# --- static int8 (PT2E; codegen.et.quantize) -------------------------------------------------
class Int8Cnn(nn.Module):
    """A small CNN whose PT2E static int8 lowering holds every q8ta op ExecuTorch's Vulkan
    partitioner emits: a conv stem with relu (q8ta_conv2d), max pool (float, between
    dequantize and quantize) and a relu of its own (q8ta_relu), depthwise and pointwise
    convs (_dw, _pw), a residual add with relu (q8ta_add), a transposed conv and a pixel
    shuffle (q8ta_conv2d_transposed, q8ta_pixel_shuffle), the global mean and a linear
    over the batch's rows (q8ta_linear), and a second linear on one row
    (q8ta_linear_gemv)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pw = nn.Conv2d(8, 16, 1)
        self.conv = nn.Conv2d(16, 16, 3, padding=1)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.post = nn.Conv2d(2, 8, 3, padding=1)
        self.fc = nn.Linear(8, 10)
        self.pooled = nn.Linear(8, 6)

    def forward(self, x):
        y = F.relu(self.stem(x))
        y = F.relu(F.max_pool2d(y, 3, 1, 1))
        y = F.relu(self.dw(y))
        y = self.pw(y)
        y = F.relu(y + self.conv(y))
        y = self.post(F.pixel_shuffle(self.up(y), 2))
        pooled = y.mean((2, 3))
        return self.fc(pooled), self.pooled(pooled[:1])


def int8_cnn():
    torch.manual_seed(0)
    return Int8Cnn().eval(), _inputs(40, (2, 3, 16, 16))
