# Hand-made from torch 2.12.0's Python wrapper codegen
# (torch/_inductor/codegen/wrapper.py, PythonWrapperCodegen, read in the
# torch-2.12.0 wheel): the shapes of its user-annotated streams that neither
# 2.13 nor 2.14 writes this way.
# * the device context with streams (EnterDeviceContextManagerWithStreamInfoLine):
#   `default_stream = torch.cuda.current_stream()` and
#   `stream1 = get_external_object_by_index(0)` (imported from
#   torch._dynamo.graph_bytecode_inputs);
# * the deferred alignment copy under its 2.12 name:
#   `arg0_1 = copy_misaligned(arg0_1)` (from torch._C._dynamo.guards);
# * a stream context (EnterCudaStreamContextLine):
#   `with torch.cuda.stream(stream1):`, and the raw stream read from it
#   (_write_get_raw_stream): `stream1_raw = stream1.cuda_stream`, launched on.
# Runs on CPU: torch 2.13 renamed copy_misaligned to copy_if_misaligned (bound
# here under the old name); the test injects get_external_object_by_index,
# get_raw_stream and the kernels and records torch.cuda's guard and streams.
import torch

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cpu
copy_misaligned = torch._C._dynamo.guards.copy_if_misaligned


def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    assert_size_stride(arg0_1, (16, ), (1, ), 'input')
    assert_size_stride(arg1_1, (16, ), (1, ), 'input')
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        default_stream = torch.cuda.current_stream()
        stream1 = get_external_object_by_index(0)
        arg0_1 = copy_misaligned(arg0_1)
        buf0 = empty_strided_cuda((16, ), (1, ), torch.float32)
        with torch.cuda.stream(stream1):
            stream1_raw = stream1.cuda_stream
            triton_poi_fused_add_0.run(arg0_1, arg1_1, buf0, 16, stream=stream1_raw)
        del arg0_1
        buf1 = empty_strided_cuda((16, ), (1, ), torch.float32)
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_0.run(buf0, arg1_1, buf1, 16, stream=stream0)
        del arg1_1
    return (buf0, buf1, )
