# Hand-made from torch 2.7.1's Python wrapper codegen
# (torch/_inductor/codegen/wrapper.py, PythonWrapperCodegen, read in the
# torch-2.7.1 wheel): torch 2.7.1 is the torch that torch_npu 2.7.1 (the
# release triton-ascend 3.2.0 pins) pairs with. The shapes 2.13 writes
# otherwise, in 2.7.1's forms:
# * a plain `def call(args)`; input sizes through codegen_input_symbol_assignment
#   (`arg0_1_size = arg0_1.size()`, `s0 = arg0_1_size[0]`) and a SymInt input
#   (`s1 = arg1_1`);
# * input asserts without the op name: `assert_size_stride(arg0_1, size, stride)`;
# * precomputed sizes (ensure_size_computed: `ps0 = 4*s0`) and kernel numel
#   expressions (generate_numel_expr: `triton_poi_fused_add_0_xnumel = 4*s0`);
# * `stream0 = get_raw_stream(0)` and launches `kernel.run(..., stream=stream0)`;
# * a fallback kernel's result (`buf1 = torch.ops.aten.cumsum.default(buf0, 0)`);
# * a dtype view of a reinterpreted buffer (codegen_reinterpret_view with a
#   dtype: `aten.view.dtype(reinterpret_tensor(buf0, ...), torch.int32)`);
# * a host-side while loop (codegen_while_loop / codegen_subgraph):
#   `buf2 = [None] * 1`, `buf2[0] = buf1`, `while True:` with the subgraph
#   prefix (`arg0_1 = buf2[0]`), `<graph>_args = [arg0_1,]`, `del arg0_1`,
#   `(buf2_cond_result,) = <graph>(<graph>_args)`, `if not buf2_cond_result: break`,
#   `(buf2[0],) = <body>(<body>_args)` (the loop and the item stores are Python islands);
# * invoke_subgraph's tuple-item outputs: `(buf3[0],) = repeated_subgraph0(...)`.
# Runs on CPU: the test injects `get_raw_stream` and the kernel and records
# torch.cuda's guard; `empty_strided_cuda` is the CPU allocator.
import torch

aten = torch.ops.aten
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor


def while_loop_cond_graph_0(args):
    arg0_1, = args
    args.clear()
    return (arg0_1.sum() < 100, )


def while_loop_body_graph_0(args):
    arg0_1, = args
    args.clear()
    return (arg0_1 * 2 + 1, )


def repeated_subgraph0(args):
    arg0_1, = args
    args.clear()
    return (arg0_1 - 1, )


def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    arg0_1_size = arg0_1.size()
    s0 = arg0_1_size[0]
    s1 = arg1_1
    assert_size_stride(arg0_1, (s0, 4), (4, 1))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        ps0 = 4*s0
        buf0 = empty_strided_cuda((s0, 4), (4, 1), torch.float32)
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_0_xnumel = 4*s0
        triton_poi_fused_add_0.run(arg0_1, buf0, s1, triton_poi_fused_add_0_xnumel, stream=stream0)
        del arg0_1
        buf1 = torch.ops.aten.cumsum.default(buf0, 0)
        buf2 = [None] * 1
        buf2[0] = buf1
        while True:

            # subgraph: while_loop_cond_graph_0
            arg0_1 = buf2[0]
            while_loop_cond_graph_0_args = [arg0_1,]
            del arg0_1
            (buf2_cond_result,) = while_loop_cond_graph_0(while_loop_cond_graph_0_args)
            if not buf2_cond_result: break

            # subgraph: while_loop_body_graph_0
            arg0_1 = buf2[0]
            while_loop_body_graph_0_args = [arg0_1,]
            del arg0_1
            (buf2[0],) = while_loop_body_graph_0(while_loop_body_graph_0_args)
        del buf1
        buf4 = buf2[0]
        del buf2
        buf3 = [None] * 1

        # subgraph: repeated_subgraph0
        arg0_1 = buf0
        repeated_subgraph0_args = [arg0_1,]
        del arg0_1
        (buf3[0],) = repeated_subgraph0(repeated_subgraph0_args)
        buf5 = buf3[0]
        del buf3
        buf6 = reinterpret_tensor(buf0, (ps0, ), (1, ), 0)
        buf7 = aten.view.dtype(reinterpret_tensor(buf0, (ps0, ), (1, ), 0), torch.int32)
    return (buf0, buf4, buf5, buf6, buf7, )
