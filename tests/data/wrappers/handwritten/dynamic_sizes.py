# Hand-written, shaped like the Python wrappers Inductor writes for dynamic
# shapes (torch 2.10-2.14): sizes read from the inputs (`.size(0)`, the
# `argN_size = argN.size()` / `argN_size[i]` form of
# `codegen_input_symbol_assignment`), size arithmetic, symbolic asserts,
# `torch.ops.aten.*` calls with lists and tuple results, tuple items,
# 2.13's deferred alignment copies (`copy_if_misaligned`), `assert_alignment`,
# a tuple unpack of a call's result, and one statement the translator does not
# know (an `if`), which runs as a Python island.
import torch
from torch._C._dynamo.guards import copy_if_misaligned
from torch._inductor.select_algorithm import extern_kernels

aten = torch.ops.aten
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor


def cpp_fused_scale_0(out, inp, n):
    out.copy_(inp * 2 + n)


def split_pair(t):
    return t[:1], t[1:]


def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    s0 = arg0_1.size(0)
    arg1_1_size = arg1_1.size()
    s1 = arg1_1_size[1]
    assert_size_stride(arg0_1, (s0, 8), (8, 1), 'input')
    assert_size_stride(arg1_1, (8, s1), (s1, 1), 'input')
    assert_alignment(arg0_1, 16, 'input')
    arg2_1 = copy_if_misaligned(arg2_1)
    ps0 = (s0 + 3) // 4
    ps1 = s0 * s1
    buf0 = empty_strided_cpu((s0, s1), (s1, 1), torch.float32)
    extern_kernels.mm(arg0_1, arg1_1, out=buf0)
    del arg1_1
    buf1 = empty_strided_cpu((s0, s1), (s1, 1), torch.float32)
    cpp_fused_scale_0(buf1, buf0, ps0)
    buf2 = aten.cat.default([buf0, buf1])
    del buf0
    buf3 = torch.ops.aten.max.dim(buf2, 1)
    buf4 = buf3[0]
    buf5 = buf3[1]
    del buf3
    buf6, buf7 = split_pair(buf4)
    if ps1 > 4:
        buf8 = reinterpret_tensor(buf2, (2 * ps1, ), (1, ), 0)
    else:
        buf8 = buf2.view(-1)
    del buf2
    buf9 = torch.ops.aten.add.Tensor(buf8, -s1)
    del buf8
    assert_size_stride(buf9, (2 * ps1, ), (1, ), 'torch.ops.aten.add.Tensor')
    extern_kernels.addmm(arg2_1, arg0_1, reinterpret_tensor(buf9, (8, 2), (1, 8), 0), alpha=1, beta=1, out=arg2_1)
    del arg0_1
    return (buf9, buf5, buf6, buf7, arg2_1, s0 + s1, )
