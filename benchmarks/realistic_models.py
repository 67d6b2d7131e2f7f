"""ViT-B/16, SigLIP-B/16's vision tower, ConvNeXt-T, ResNet-50, MobileNetV2 and
Florence-2-base's DaViT at their published sizes (random weights, no downloads), for the
GPU latency benchmark (`model_latency.py pack --realistic`). Too
large for CI and for the device tool's carry limit as they are: model_latency.py sends
them with their large weights stripped (seeded_weights.py)."""

from __future__ import annotations

import torch
from torch import nn

from e2e_models import _LastHidden, _Logits, _SiglipPooled, _inputs


def _identity_batch_norms(model: nn.Module) -> nn.Module:
    """Batch norms that fold into their convs without changing a weight bit (scale
    1 / sqrt(var + eps) == 1 exactly in float32), so the exported files still hold the
    seeded conv weights byte for byte and can travel without them. With nothing
    normalizing, the convs get He-initialized weights to keep activations near 1."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.zero_()
                m.running_var.fill_(1.0 - m.eps)
                m.weight.fill_(1.0)
    return model


def vit_b16():
    """ViT-B/16 at 224² (86M parameters, 1000 classes)."""
    from transformers import ViTConfig, ViTForImageClassification

    torch.manual_seed(0)
    config = ViTConfig(image_size=224, patch_size=16, hidden_size=768, num_hidden_layers=12,
                       num_attention_heads=12, intermediate_size=3072, num_labels=1000)
    return _Logits(ViTForImageClassification(config)).eval(), _inputs(27, (1, 3, 224, 224))


def siglip_b16():
    """SigLIP-B/16's vision tower at 224² (93M parameters), attention-pooled."""
    from transformers import SiglipVisionConfig, SiglipVisionModel

    torch.manual_seed(0)
    config = SiglipVisionConfig(image_size=224, patch_size=16, hidden_size=768,
                                num_hidden_layers=12, num_attention_heads=12,
                                intermediate_size=3072)
    return _SiglipPooled(SiglipVisionModel(config)).eval(), _inputs(28, (1, 3, 224, 224))


def convnext_tiny():
    """ConvNeXt-T at 224² (28M parameters)."""
    from transformers import ConvNextConfig, ConvNextForImageClassification

    torch.manual_seed(0)
    config = ConvNextConfig(hidden_sizes=[96, 192, 384, 768], depths=[3, 3, 9, 3],
                            num_labels=1000, image_size=224)
    return _Logits(ConvNextForImageClassification(config)).eval(), _inputs(29, (1, 3, 224, 224))


def resnet50():
    """ResNet-50 at 224² (25M parameters, bottleneck blocks)."""
    from transformers import ResNetConfig, ResNetForImageClassification

    torch.manual_seed(0)
    config = ResNetConfig(embedding_size=64, hidden_sizes=[256, 512, 1024, 2048],
                          depths=[3, 4, 6, 3], layer_type="bottleneck", num_labels=1000)
    model = _identity_batch_norms(ResNetForImageClassification(config))
    return _Logits(model).eval(), _inputs(30, (1, 3, 224, 224))


def mobilenet_v2():
    """MobileNetV2 1.0 at 224² (3.5M parameters)."""
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    torch.manual_seed(0)
    config = MobileNetV2Config(depth_multiplier=1.0, image_size=224, num_labels=1000)
    model = _identity_batch_norms(MobileNetV2ForImageClassification(config))
    return _Logits(model).eval(), _inputs(31, (1, 3, 224, 224))


def davit_florence2_base():
    """Florence-2-base's DaViT vision tower at 768² (about 90M parameters)."""
    from transformers import Florence2VisionConfig
    from transformers.models.florence2.modeling_florence2 import Florence2VisionBackbone

    torch.manual_seed(0)
    config = Florence2VisionConfig(drop_path_rate=0.0)  # the defaults are Florence-2-base's
    return _LastHidden(Florence2VisionBackbone(config)).eval(), _inputs(32, (1, 3, 768, 768))


MODELS = ["vit_b16", "siglip_b16", "convnext_tiny", "resnet50", "mobilenet_v2",
          "davit_florence2_base"]
