"""Which steps of a built op compute constants when some of its tensor arguments are
constants of the graph (an exported model's weights): the Python twin of the native
runtime's rule (`plan_constant_commands`, cpp_runtime/src/constant_plan.h), which runs
such steps once, at load. `opgen bench --constants` leaves them out of the timing.

A step is constant when it reads at least one tensor, every tensor it reads is a constant
or written by an earlier constant step, and every buffer it writes is written by no other
step, touched by no earlier step, and is neither a constant nor another input of the op
(inputs are written by the host or by earlier ops); an absent optional bound at a write
disqualifies it.
"""

from __future__ import annotations

from codegen.executors.planned import PlannedNode


def step_access(node: PlannedNode, index: int) -> tuple[list, list, bool]:
    """(buffers read, buffers written, writes an absent optional) of step `index`."""
    p = node.plans[index]
    d = node.bound.dispatches[p.index]
    if p.kernel is None:  # a flat copy
        return [node.buffer_of(d.spec.src)], [node.buffer_of(d.spec.dst)], False
    reads, writes, writes_absent = [], [], False
    for b in d.spec.bindings:
        buf = node.buffer_of(b.arg, d.item_of(b, p.item))
        if buf is None:
            writes_absent |= b.write
        else:
            (writes if b.write else reads).append(buf)
    return reads, writes, writes_absent


def constant_steps(node: PlannedNode, constants: set[str]) -> set[int]:
    """The indices of the steps that run once when the tensor arguments named in
    `constants` are constants of the graph."""
    steps = [i for i, p in enumerate(node.plans) if p.run and p.active]
    access = {i: step_access(node, i) for i in steps}
    names = {a.name for a in node.bound.op.args} & set(constants)  # others: not this op's
    const = {id(node.buffer_of(n)) for n in names if node.buffer_of(n) is not None}
    inputs = {id(node.buffers[id(v)]) for v in node.call.input_tensors()} - const
    writers: dict[int, int] = {}
    first_use: dict[int, int] = {}
    for i in steps:
        reads, writes, _ = access[i]
        for b in writes:
            writers[id(b)] = writers.get(id(b), 0) + 1
        for b in reads + writes:
            first_use.setdefault(id(b), i)
    constant, produced = set(), set()
    for i in steps:
        reads, writes, writes_absent = access[i]
        reads_constants = bool(reads) and all(
            (id(b) in const and id(b) not in writers) or id(b) in produced for b in reads)
        writes_own = bool(writes) and not writes_absent and all(
            writers[id(b)] == 1 and first_use[id(b)] == i and id(b) not in const | inputs
            for b in writes)
        if reads_constants and writes_own:
            constant.add(i)
            produced |= {id(b) for b in writes}
    return constant
