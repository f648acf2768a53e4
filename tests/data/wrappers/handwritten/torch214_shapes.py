# Hand-made from torch 2.14.1's Python wrapper codegen
# (torch/_inductor/codegen/wrapper.py, PythonWrapperCodegen, read in the
# torch-2.14.1 wheel): the statement shapes torch 2.13 does not write, in the
# forms 2.14 writes them.
# * input symbols (codegen_inputs): `bind_input_symbol`'s `s0 = arg0_1.size()[0]`
#   and `.stride()[d]`, `maybe_emit_replacement_aliases`'s `s2 = s0`, and a
#   symbol solved from a size expression (`arg2_1_size = arg2_1.size()`,
#   `arg2_1_size_0 = arg2_1_size[0]`, `s3 = (arg2_1_size_0 // 2)`, CleanDiv);
# * grouped input asserts (GroupedAssertSizeStrideLine):
#   `assert_size_stride_grouped((a, b), (sizes...), (strides...), 'input')`;
# * dtype-checked asserts (AssertSizeStrideLine with a dtype):
#   `assert_tensor_metadata(t, size, stride, torch.float32, 'op')`;
# * compile-on-one-rank device index (EnterDeviceContextManagerLine):
#   `_coor_device_idx = torch.cuda.current_device()`, the guard, set_device and
#   get_raw_stream on that local;
# * the default-stream cache (EnterDeviceContextManagerWithStreamInfoLine):
#   `default_stream = torch.cuda.current_stream()`;
# * per-stream alignment copies (codegen_deferred_alignment_copies):
#   `arg1_1_orig = arg1_1`, `arg1_1 = copy_if_misaligned(arg1_1_orig)`;
# * invoke_subgraph (codegen_invoke_subgraph / codegen_subgraph_call):
#   `buf2 = [None] * 1`, `repeated_subgraph0_args = [buf0,]`,
#   `buf2 = repeated_subgraph0(repeated_subgraph0_args)`, `buf3 = buf2[0]`;
# * a switch (codegen_switch): `buf4_selector = int(buf1.item())`,
#   `buf4 = [None] * 1` and an `if buf4_selector == 0: ... else: ...` over
#   subgraph calls (a Python island).
# Runs on CPU: torch 2.13 has neither assert_size_stride_grouped nor
# assert_tensor_metadata, so Python equivalents stand in (below); the test
# injects `get_raw_stream`, the kernel and torch.cuda's guard, set_device,
# current_device and current_stream; `empty_strided_cuda` is the CPU allocator.
import torch
from torch._C._dynamo.guards import copy_if_misaligned

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor


def _assert_size_stride_grouped(tensors, sizes, strides, op_name):
    for tensor, size, stride in zip(tensors, sizes, strides):
        assert_size_stride(tensor, size, stride, op_name)


def _assert_tensor_metadata(tensor, size, stride, dtype, op_name=None):
    if tensor is None:
        return
    if tensor.dtype != dtype:
        raise RuntimeError(f"expected dtype {dtype} but got {tensor.dtype} in {op_name}")
    assert_size_stride(tensor, size, stride, op_name)


assert_size_stride_grouped = getattr(torch._C._dynamo.guards, "assert_size_stride_grouped",
                                     _assert_size_stride_grouped)
assert_tensor_metadata = _assert_tensor_metadata


def repeated_subgraph0(args):
    arg0_1, = args
    args.clear()
    buf0 = empty_strided_cpu_like(arg0_1)
    buf0.copy_(arg0_1 * 2)
    return (buf0, )


def true_graph_0(args):
    arg0_1, = args
    args.clear()
    return (arg0_1 + 1, )


def false_graph_0(args):
    arg0_1, = args
    args.clear()
    return (arg0_1 - 1, )


def empty_strided_cpu_like(t):
    return empty_strided_cuda(tuple(t.size()), tuple(t.stride()), t.dtype)


def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    s0 = arg0_1.size()[0]
    s1 = arg0_1.stride()[0]
    s2 = s0
    arg2_1_size = arg2_1.size()
    arg2_1_size_0 = arg2_1_size[0]
    s3 = (arg2_1_size_0 // 2)
    assert_size_stride_grouped((arg0_1, arg1_1), ((s0, 4), (s2, 4)), ((s1, 1), (4, 1)), 'input')
    assert_tensor_metadata(arg2_1, (2*s3, ), (1, ), torch.float32, 'input')
    _coor_device_idx = torch.cuda.current_device()
    with torch.cuda._DeviceGuard(_coor_device_idx):
        torch.cuda.set_device(_coor_device_idx)
        default_stream = torch.cuda.current_stream()
        arg1_1_orig = arg1_1
        arg1_1 = copy_if_misaligned(arg1_1_orig)
        buf0 = empty_strided_cuda((s0, 4), (4, 1), torch.float32)
        stream0 = get_raw_stream(_coor_device_idx)
        triton_poi_fused_add_0.run(arg0_1, arg1_1, buf0, 4*s0, stream=stream0)
        del arg0_1
        del arg1_1
        buf1 = empty_strided_cuda((), (), torch.float32)
        triton_poi_fused_sum_1.run(buf0, buf1, 4*s0, stream=stream0)
        buf2 = [None] * 1
        repeated_subgraph0_args = [buf0, ]
        buf2 = repeated_subgraph0(repeated_subgraph0_args)
        buf3 = buf2[0]
        del buf2
        buf4_selector = int(buf1.item())
        buf4 = [None] * 1
        if buf4_selector == 0:
            true_graph_0_args = [arg2_1, ]
            buf4 = true_graph_0(true_graph_0_args)
        else:
            false_graph_0_args = [arg2_1, ]
            buf4 = false_graph_0(false_graph_0_args)
        del arg2_1
        buf5 = buf4[0]
        del buf4
        buf6 = reinterpret_tensor(buf3, (4*s0, ), (1, ), 0)
    return (buf0, buf1, buf5, buf6, )
