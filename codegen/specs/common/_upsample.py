"""The 2-D upsampling ops' shared spec parts (not a spec file: the loader skips `_`
files): the output size from output_size or scale_factors (as ATen's .vec overloads read
them), its guards and the output's shape. upsample_nearest2d and upsample_bilinear2d
name the input's H and W (`ih`, `iw`) as their own lets do."""

from codegen.language import Guard

OUT_SHAPE = "[input.dims[0], input.dims[1], OH, OW]"


def size_lets(ih: str, iw: str) -> dict:
    """OH and OW: output_size when given, else the input's size times scale_factors."""
    return {
        "OH": "output_size[0] if len(output_size) == 2 else "
              f"floor({ih} * scale_factors[0]) if len(scale_factors) == 2 else 0",
        "OW": "output_size[1] if len(output_size) == 2 else "
              f"floor({iw} * scale_factors[1]) if len(scale_factors) == 2 else 0",
    }


def size_guards(ih: str, iw: str) -> list[Guard]:
    return [
        Guard("len(output_size) == 2 or len(scale_factors) == 2", "output_size",
              "and scale_factors are both missing", got="len(output_size)",
              expected="2 output sizes or 2 scale factors"),
        Guard(f"{ih} > 0 and {iw} > 0", "input", "has an empty spatial dim", got="input.dims",
              expected="non-zero H and W"),
    ]
