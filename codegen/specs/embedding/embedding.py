"""embedding: out[..., :] = weight[indices[...], :] for int indices of any rank.

indices are int64 in torch and int32 on the GPU. An index outside 0..V-1 (torch raises;
a GPU kernel cannot) gives a row of NaN (quiet NaN 0x7fc00000): a bad token id shows
up in the result instead of reading a plausible wrong row. Negative indices do not wrap
(torch raises on them too). padding_idx, scale_grad_by_freq and sparse only change
gradients: any value is accepted. Rows move as 32-bit words, four at a time (vec4)
when D % 4 == 0.
"""

from codegen.language import (ANY, F32, I32, Bind, Case, Dispatch, Elementwise, Ignored, Kernel, Op,
                          Output, Route, Tensor, u32)
from codegen.graph.inputs import randint, randn, tensor

# a word (u32) or four (vec4<u32>) per invocation, from one body
EMBED = Kernel("embedding_rows", aliases={"Word": "u32"})
EMBED_VEC4 = EMBED.variant("embedding_rows_vec4", aliases={"Word": "vec4<u32>"})


def embed_dispatch(kernel: Kernel, elem: str, lanes: int, when: str) -> Dispatch:
    return Dispatch(
        params={
            "row_len": u32(f"D // {lanes}"),
            "num_rows": u32("V"),
            "num_elements": u32(f"out.numel // {lanes}"),
        },
        bindings=[Bind("weight", "weight", elem=elem), Bind("indices", "indices"),
                  Bind("output", "out", write=True, elem=elem)],
        routes=[Route(kernel, Elementwise(f"out.numel // {lanes}"))],
        name=kernel.name, when=when)


OPS = [Op(
    name="embedding",
    targets=["aten.embedding.default"],
    args=[Tensor("weight", (F32,), rank=2), Tensor("indices", (I32,)),
          Ignored("padding_idx", accepts=ANY), Ignored("scale_grad_by_freq", accepts=ANY),
          Ignored("sparse", accepts=ANY), Output("out", (F32,))],
    let={"V": "weight.dims[0]", "D": "weight.dims[1]"},
    shapes={"out": "indices.dims + [D]"},
    resize="dynamic",
    dispatches=[embed_dispatch(EMBED_VEC4, "vec4<u32>", 4, "D % 4 == 0"),
                embed_dispatch(EMBED, "u32", 1, "D % 4 != 0")],
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
        Case("rejects_int_weight", (randint(0, 5, 4, 4, dtype="int32"), randint(0, 4, 3)),
             raises="weight has an unsupported dtype (got int32, expected float32)"),
        Case("rejects_float_indices", (randn(4, 4), randn(3)),
             raises="indices has an unsupported dtype (got float32, expected int32)"),
        Case("rejects_weight_rank", (randn(4, 4, 2), randint(0, 4, 3)),
             raises="weight has the wrong rank (got 3, expected 2)"),
    ],
)]
