# Hand-written, shaped like torch_npu's NPU Python wrapper (torch_npu 2.13's
# device_op_overrides over stock PythonWrapperCodegen): the device guard
# `torch.npu.utils.device(0)`, `torch.npu.set_device(0)`, the raw stream from
# `torch_npu._C._npu_getCurrentRawStreamNoWait` (imported as get_raw_stream),
# the generic `empty_strided(..., device='npu', dtype=...)` of make_allocation
# with its `.as_strided(...)` when the allocation shape differs, and Triton
# launches through `kernel.run(..., stream=stream0)`. Runs on CPU: the test
# injects `empty_strided`, `get_raw_stream`, the kernels and a fake torch.npu.
import torch

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor


def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (8, ), (1, ), 'input')
    with torch.npu.utils.device(0):
        torch.npu.set_device(0)
        buf0 = empty_strided((8, ), (1, ), device='npu', dtype=torch.float32)
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_0.run(arg0_1, buf0, 8, stream=stream0)
        del arg0_1
        buf1 = empty_strided((16, ), (1, ), device='npu', dtype=torch.float32).as_strided((2, 4), (4, 1))
        triton_poi_fused_mul_1.run(reinterpret_tensor(buf0, (2, 4), (4, 1), 0), buf1, 8, stream=stream0)
        del buf0
    return (buf1, )
