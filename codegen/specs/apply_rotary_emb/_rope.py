"""What the two RoPE ops over xq and xk share (not a spec file: the loader skips `_` files):
apply_rotary_emb (Meta's interleaved pairs) and apply_rotary_emb_hf (HF's rotate-half)
take the same tensors, return xq and xk rotated, and check the same facts about them."""

from codegen.language import F16, F32, Bind, Guard, Output, Outputs, same_dtype

FLOATS = (F32, F16)  # float16: the kernels' float16 twins (rotations in float32)
OUTPUTS = Outputs("out", (Output("xq_out", FLOATS, rank=4), Output("xk_out", FLOATS, rank=4)))
SHAPES = {"xq_out": "xq.dims", "xk_out": "xk.dims"}
XK_HEAD_DIM = Guard("xk.dims[3] == D", "xk", "has a different head_dim than xq", got="xk.dims[3]",
                    expected="{D}")
SIN_LIKE_COS = Guard("freqs_sin.dims == freqs_cos.dims", "freqs_sin",
                     "has a different shape than freqs_cos", got="freqs_sin.dims",
                     expected="{freqs_cos.dims}")
SAME_DTYPE = same_dtype("xq", ["xk", "freqs_cos", "freqs_sin"])


def bindings(view: str) -> list[Bind]:
    """xq and xk read and their rotated copies written through `view`; the cos and sin
    tables read as scalars."""
    return [Bind("xq", "xq", view=view), Bind("xk", "xk", view=view),
            Bind("cos_table", "freqs_cos", view="scalar"),
            Bind("sin_table", "freqs_sin", view="scalar"),
            Bind("xq_out", "xq_out", write=True, view=view),
            Bind("xk_out", "xk_out", write=True, view=view)]
