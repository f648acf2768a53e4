# Hand-written, shaped like the CUDA Python wrappers Inductor writes
# (torch 2.10-2.14): a device guard around the body, the current raw stream,
# Triton launches `kernel.run(..., stream=stream0)`, a fastlaunch call site
# (fastlaunch.engine.callsite.emit), a `Runner.call(self, args)` method reading its
# partitions, and a statement kept as a Python island. Runs on CPU: the test
# injects `get_raw_stream`, the `triton_*` kernels and `_fastlaunch_bind`, and
# replaces torch.cuda._DeviceGuard with a recording guard.
import torch

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor

_fastlaunch_meta_0 = {'kernel_name': 'triton_poi_fused_mul_1', 'callsite_id': 'g:0', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_0 = [None]


class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def call(self, args):
        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride(arg0_1, (4, 4), (4, 1), 'input')
        assert_size_stride(arg1_1, (16, ), (1, ), 'input')
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((4, 4), (4, 1), torch.float32)
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_0.run(arg0_1, buf0, 16, stream=stream0)
            del arg0_1
            buf1 = empty_strided_cuda((16, ), (1, ), torch.float32)
            _fastlaunch_fn = _fastlaunch_call_0[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_0, triton_poi_fused_mul_1, call_slot=_fastlaunch_call_0)
            _fastlaunch_fn(reinterpret_tensor(buf0, (16, ), (1, ), 0), arg1_1, buf1, stream=stream0)
            del buf0
            partition0 = self.partitions[0]
            buf2 = partition0(buf1)
            for i in range(2):
                buf2.add_(i)
            del arg1_1
        return (buf1, buf2, )


runner = Runner(partitions=[lambda t: t * 3])
call = runner.call
