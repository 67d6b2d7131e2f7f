"""embedding: out[..., :] = weight[indices[...], :] for int indices of any rank.

indices are int64 in torch and int32 on the GPU. An index outside 0..V-1 (torch raises;
a GPU kernel cannot) gives a row of NaN (quiet NaN 0x7fc00000): a bad token id shows
up in the result instead of reading a plausible wrong row. Negative indices do not wrap
(torch raises on them too). padding_idx, scale_grad_by_freq and sparse only change
gradients: any value is accepted. Rows move as 32-bit words, four at a time (vec4)
when they hold whole vec4s: float32 rows always, float16 rows when D is even (two halves
a word, a NaN in each half for a bad index); an odd float16 row length is refused.
"""

from codegen.language import (ANY, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard,
                              Ignored, Kernel, Op, Output, Route, Tensor, u32)
from codegen.graph.inputs import randint, randn, tensor

# a word (u32) or four (vec4<u32>) per invocation, from one body
# (float16 rows: the same bodies with two halves a word)
EMBED = Kernel("embedding_rows", helpers=("../common/each_element.wgsl",),
               aliases={"Word": "u32"}, consts={"NAN_WORD": "0x7fc00000u"})
EMBED_VEC4 = EMBED.variant("embedding_rows_vec4", aliases={"Word": "vec4<u32>"})
EMBED_F16 = EMBED.variant("embedding_rows_f16", consts={"NAN_WORD": "0x7e007e00u"})
EMBED_F16_VEC4 = EMBED_VEC4.variant("embedding_rows_f16_vec4", consts={"NAN_WORD": "0x7e007e00u"})
HALF = "weight.dtype == 'float16'"


def embed_dispatch(kernel: Kernel, elem: str, lanes: int, when: str, routes=()) -> Dispatch:
    """`lanes` words an invocation; `routes` (the float16 kernel) before the kernel's."""
    words = f"(D // 2 if {HALF} else D) // {lanes}"  # words (or vec4s) a row
    return Dispatch(
        params={
            "row_len": u32(words),
            "num_rows": u32("V"),
            "num_elements": u32(f"indices.numel * {words}"),
        },
        bindings=[Bind("weight", "weight", elem=elem), Bind("indices", "indices"),
                  Bind("output", "out", write=True, elem=elem)],
        routes=[*routes, Route(kernel, Elementwise(f"indices.numel * {words}"))],
        name=kernel.name, when=when)


OPS = [Op(
    name="embedding",
    targets=["aten.embedding.default"],
    args=[Tensor("weight", (F32, F16), rank=2), Tensor("indices", (I32,)),
          Ignored("padding_idx", accepts=ANY), Ignored("scale_grad_by_freq", accepts=ANY),
          Ignored("sparse", accepts=ANY), Output("out", (F32, F16))],
    let={"V": "weight.dims[0]", "D": "weight.dims[1]"},
    guards=[Guard(f"not ({HALF}) or D % 2 == 0", "weight",
                  "holds float16 rows of an odd length (rows move as whole words)",
                  got="weight.dims", expected="an even row length")],
    shapes={"out": "indices.dims + [D]"},
    resize="dynamic",
    dispatches=[embed_dispatch(EMBED_VEC4, "vec4<u32>", 4, f"D % (8 if {HALF} else 4) == 0",
                               [Route(EMBED_F16_VEC4, Elementwise("indices.numel * D // 8"),
                                      when=HALF)]),
                embed_dispatch(EMBED, "u32", 1, f"D % (8 if {HALF} else 4) != 0",
                               [Route(EMBED_F16, Elementwise("indices.numel * D // 2"),
                                      when=HALF)])],
    cases=[
        Case("tokens", (randn(50, 16), randint(0, 50, 2, 7)), route="embedding_rows_vec4",
             exact=True),
        Case("odd_dim", (randn(13, 7), randint(0, 13, 5)), route="embedding_rows", exact=True),
        Case("scalar_index", (randn(10, 8), tensor(3, dtype="int64")), exact=True),
        Case("index_rank3", (randn(11, 4), randint(0, 11, 2, 3, 2)), exact=True),
        Case("int32_indices", (randn(9, 5), randint(0, 9, 3, 3, dtype="int32")), exact=True),
        Case("first_and_last_rows", (randn(6, 12), tensor([0, 5, 5, 0], dtype="int64")),
             exact=True),
        Case("padding_idx", (randn(8, 4), randint(0, 8, 6), 0), exact=True),
        Case("ieee_specials", (tensor([[float("nan"), -0.0], [float("inf"), -float("inf")]]),
                               tensor([1, 0, 1], dtype="int64")), exact=True),
        Case("multi_workgroup", (randn(97, 12), randint(0, 97, 301)), exact=True),
        Case("multi_workgroup_odd", (randn(31, 9), randint(0, 31, 257)), exact=True),
        Case("resize_decode", (randn(40, 8), randint(0, 40, 1, 9)), resize={"indices": (1, 1)},
             exact=True),
        # float16 rows: vec4s of 8 halves, or words of 2; a bad index gives NaN halves
        Case("f16_tokens", (randn(50, 16, dtype="float16"), randint(0, 50, 2, 7)),
             route="embedding_rows_f16_vec4", exact=True),
        Case("f16_words", (randn(13, 6, dtype="float16"), randint(0, 13, 5)),
             route="embedding_rows_f16", exact=True),
        Case("rejects_odd_f16_rows", (randn(13, 7, dtype="float16"), randint(0, 13, 5)),
             raises="weight holds float16 rows of an odd length (rows move as whole words) (got "
                    "[13, 7], expected an even row length)"),
        Case("rejects_int_weight", (randint(0, 5, 4, 4, dtype="int32"), randint(0, 4, 3)),
             raises="weight has an unsupported dtype (got int32, expected float32 or float16)"),
        Case("rejects_float_indices", (randn(4, 4), randn(3)),
             raises="indices has an unsupported dtype (got float32, expected int32)"),
        Case("rejects_weight_rank", (randn(4, 4, 2), randint(0, 4, 3)),
             raises="weight has the wrong rank (got 3, expected 2)"),
    ],
)]
