# AOT ID: ['0_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
from fastlaunch.engine.routing import bind as _fastlaunch_bind
_fastlaunch_meta_0 = {'kernel_name': 'triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', 'callsite_id': 'None:0', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_0 = [None]
_fastlaunch_meta_1 = {'kernel_name': 'triton_per_fused_add_arange_cat_cumsum_ne_slice_sub_unsqueeze_1', 'callsite_id': 'None:1', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_1 = [None]
_fastlaunch_meta_2 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2', 'callsite_id': 'None:2', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_2 = [None]
_fastlaunch_meta_3 = {'kernel_name': 'triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_3', 'callsite_id': 'None:3', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_3 = [None]
_fastlaunch_meta_4 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:4', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_4 = [None]
_fastlaunch_meta_5 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:5', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_5 = [None]
_fastlaunch_meta_6 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:6', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_6 = [None]
_fastlaunch_meta_7 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:7', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_7 = [None]
_fastlaunch_meta_8 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:8', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_8 = [None]
_fastlaunch_meta_9 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:9', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_9 = [None]
_fastlaunch_meta_10 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:10', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_10 = [None]
_fastlaunch_meta_11 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:11', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_11 = [None]
_fastlaunch_meta_12 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:12', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_12 = [None]
_fastlaunch_meta_13 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:13', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_13 = [None]
_fastlaunch_meta_14 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:14', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_14 = [None]
_fastlaunch_meta_15 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:15', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_15 = [None]
_fastlaunch_meta_16 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:16', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_16 = [None]
_fastlaunch_meta_17 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:17', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_17 = [None]
_fastlaunch_meta_18 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2', 'callsite_id': 'None:18', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_18 = [None]
_fastlaunch_meta_19 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:19', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_19 = [None]
_fastlaunch_meta_20 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:20', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_20 = [None]
_fastlaunch_meta_21 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:21', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_21 = [None]
_fastlaunch_meta_22 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:22', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_22 = [None]
_fastlaunch_meta_23 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:23', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_23 = [None]
_fastlaunch_meta_24 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:24', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_24 = [None]
_fastlaunch_meta_25 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:25', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_25 = [None]
_fastlaunch_meta_26 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:26', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_26 = [None]
_fastlaunch_meta_27 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:27', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_27 = [None]
_fastlaunch_meta_28 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:28', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_28 = [None]
_fastlaunch_meta_29 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:29', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_29 = [None]
_fastlaunch_meta_30 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:30', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_30 = [None]
_fastlaunch_meta_31 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:31', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_31 = [None]
_fastlaunch_meta_32 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:32', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_32 = [None]
_fastlaunch_meta_33 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:33', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_33 = [None]
_fastlaunch_meta_34 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_7', 'callsite_id': 'None:34', 'arg_count': 4, 'abi': 'cuda'}
_fastlaunch_call_34 = [None]
_fastlaunch_meta_35 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:35', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_35 = [None]
_fastlaunch_meta_36 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:36', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_36 = [None]
_fastlaunch_meta_37 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'callsite_id': 'None:37', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_37 = [None]
_fastlaunch_meta_38 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'callsite_id': 'None:38', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_38 = [None]
_fastlaunch_meta_39 = {'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'callsite_id': 'None:39', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_39 = [None]
_fastlaunch_meta_40 = {'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_8', 'callsite_id': 'None:40', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_40 = [None]

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/lj/cljudxahf5vtpubgins6rkcjavj2qwqknsks5pzaqlir7xoe4qcp.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_2 => add_4, add_5, mul, mul_1, rsqrt, sub_2, var_mean
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
# Graph fragment:
#   %arg0_1 : Tensor "i64[1, 16][16, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[1024, 256][256, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[256, 256][256, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %getitem_1 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf1 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=buf1]
#   %arg3_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %arg4_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %embedding : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_1, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_1, %getitem_1), kwargs = {})
#   %add_4 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg3_1), kwargs = {})
#   %add_5 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg4_1), kwargs = {})
#   return %getitem_1,%buf1,%add_5
triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0 = async_compile.triton('triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 128, 'r0_': 51200}}
)
@triton.jit
def triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp10_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp10_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp10_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp7 = tl.load(in_ptr2 + (r0_1 + 256*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.full([1, 1], 1024, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 1024")
        tmp6 = tl.load(in_ptr1 + (r0_1 + 256*tmp4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp8 = tmp6 + tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp10_mean_next, tmp10_m2_next, tmp10_weight_next = triton_helpers.welford_reduce(
            tmp9, tmp10_mean, tmp10_m2, tmp10_weight, roffset == 0
        )
        tmp10_mean = tl.where(r0_mask & xmask, tmp10_mean_next, tmp10_mean)
        tmp10_m2 = tl.where(r0_mask & xmask, tmp10_m2_next, tmp10_m2)
        tmp10_weight = tl.where(r0_mask & xmask, tmp10_weight_next, tmp10_weight)
    tmp11, tmp12, tmp13 = triton_helpers.welford(tmp10_mean, tmp10_m2, tmp10_weight, 1)
    tmp10 = tmp11[:, None]
    tmp14 = tmp12[:, None]
    tmp15 = tmp13[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp22 = tl.load(in_ptr2 + (r0_1 + 256*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp31 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp33 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp16 = tl.full([1, 1], 1024, tl.int32)
        tmp17 = tmp0 + tmp16
        tmp18 = tmp0 < 0
        tmp19 = tl.where(tmp18, tmp17, tmp0)
        tl.device_assert(((0 <= tmp19) & (tmp19 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp19 < 1024")
        tmp21 = tl.load(in_ptr1 + (r0_1 + 256*tmp19), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp23 = tmp21 + tmp22
        tmp24 = tmp23 - tmp10
        tmp25 = tl.full([1, 1], 256.0, tl.float32)
        tmp26 = (tmp14 / tmp25)
        tmp27 = tl.full([1, 1], 1e-05, tl.float32)
        tmp28 = tmp26 + tmp27
        tmp29 = libdevice.rsqrt(tmp28)
        tmp30 = tmp24 * tmp29
        tmp32 = tmp30 * tmp31
        tmp34 = tmp32 + tmp33
        tl.store(out_ptr2 + (r0_1 + 256*x0), tmp34, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/46/c46u3y6umcgk3v4ynei7e4cjeq7oe4bvflcotf2wkjr5pvmamzu4.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
# Source node to ATen node mapping:
#   arange => iota
#   first_dummy_value => sub
#   getitem => slice_1
#   ne => ne
#   packed_sequence_mask => cumsum
#   position_diff => cat, slice_2, slice_3, sub_1
#   position_ids => add
#   position_ids_1 => unsqueeze
# Graph fragment:
#   %iota : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %slice_1 : Tensor "i64[1, 1][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%unsqueeze, 1, 0, 1), kwargs = {})
#   %sub : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_1, 1), kwargs = {})
#   %cat : Tensor "i64[1, 17][17, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cat.default](args = ([%sub, %unsqueeze], -1), kwargs = {})
#   %slice_3 : Tensor "i64[1, 16][17, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 1, 17), kwargs = {})
#   %slice_2 : Tensor "i64[1, 16][17, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 0, 16), kwargs = {})
#   %sub_1 : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_3, %slice_2), kwargs = {})
#   %ne : Tensor "b8[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%sub_1, 1), kwargs = {})
#   %cumsum : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cumsum.default](args = (%ne, -1), kwargs = {})
#   return %cumsum
triton_per_fused_add_arange_cat_cumsum_ne_slice_sub_unsqueeze_1 = async_compile.triton('triton_per_fused_add_arange_cat_cumsum_ne_slice_sub_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton_heuristics.persistent_reduction(
    size_hints={'x': 1, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_arange_cat_cumsum_ne_slice_sub_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'r0_': 256}}
)
@triton.jit
def triton_per_fused_add_arange_cat_cumsum_ne_slice_sub_unsqueeze_1(out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_0 = r0_index
    tmp0 = 1 + r0_0
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.broadcast_to((-1) + (1 + r0_0), [XBLOCK, R0_BLOCK])
    tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
    tmp7 = tl.where(tmp4, tmp5, tmp6)
    tmp8 = tmp0 >= tmp3
    tmp9 = tl.full([1, 1], 17, tl.int64)
    tmp10 = tmp0 < tmp9
    tmp11 = tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp8, tmp11, tmp12)
    tmp14 = tl.where(tmp4, tmp7, tmp13)
    tmp15 = r0_0
    tmp16 = tmp15 >= tmp1
    tmp17 = tmp15 < tmp3
    tmp18 = tl.broadcast_to((-1) + (r0_0), [XBLOCK, R0_BLOCK])
    tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
    tmp20 = tl.where(tmp17, tmp18, tmp19)
    tmp21 = tmp15 >= tmp3
    tmp22 = tmp15 < tmp9
    tmp23 = tl.broadcast_to((-1) + r0_0, [XBLOCK, R0_BLOCK])
    tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
    tmp25 = tl.where(tmp21, tmp23, tmp24)
    tmp26 = tl.where(tmp17, tmp20, tmp25)
    tmp27 = tmp14 - tmp26
    tmp28 = tmp27 != tmp3
    tmp29 = tmp28.to(tl.int64)
    tmp30 = tmp29.to(tl.int64)
    tmp31 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
    tmp32, = tl.associative_scan((tmp31,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp32, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/dl/cdloctxtnhvfzadzsqm72rhphgigvbvy5saenjmsfq6age7p2jmh.py
# Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4, x_17, split_2, view_27, query_states_5, view_25, key_states_5, view_26, value_states_5, attn_output_8, x_25, split_3, view_38, query_states_7, view_36, key_states_7, view_37, value_states_7, attn_output_12, x_33, split_4, view_49, query_states_9, view_47, key_states_9, view_48, value_states_9, attn_output_16], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand
#   attn_output => _scaled_dot_product_efficient_attention, expand_1, full_default_1, full_default_2, where
#   attn_output_12 => _scaled_dot_product_efficient_attention_3, expand_4, full_default_7, full_default_8, where_3
#   attn_output_16 => _scaled_dot_product_efficient_attention_4, expand_5, full_default_10, full_default_9, where_4
#   attn_output_4 => _scaled_dot_product_efficient_attention_1, expand_2, full_default_3, full_default_4, where_1
#   attn_output_8 => _scaled_dot_product_efficient_attention_2, expand_3, full_default_5, full_default_6, where_2
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   eq => eq
#   getitem_5 => index
#   getitem_6 => index_1
#   key_states_1 => permute
#   key_states_3 => permute_4
#   key_states_5 => permute_8
#   key_states_7 => permute_12
#   key_states_9 => permute_16
#   kv_arange => add_3
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le
#   q_arange => add_2
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states_1 => permute_2
#   query_states_3 => permute_6
#   query_states_5 => permute_10
#   query_states_7 => permute_14
#   query_states_9 => permute_18
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   split => split
#   split_1 => split_1
#   split_2 => split_2
#   split_3 => split_3
#   split_4 => split_4
#   value_states_1 => permute_1
#   value_states_3 => permute_5
#   value_states_5 => permute_9
#   value_states_7 => permute_13
#   value_states_9 => permute_17
#   view_14 => view_15
#   view_15 => view_16
#   view_16 => view_17
#   view_25 => view_27
#   view_26 => view_28
#   view_27 => view_29
#   view_3 => view_3
#   view_36 => view_39
#   view_37 => view_40
#   view_38 => view_41
#   view_4 => view_4
#   view_47 => view_51
#   view_48 => view_52
#   view_49 => view_53
#   view_5 => view_5
#   x_1 => view_2
#   x_17 => view_26
#   x_25 => view_38
#   x_33 => view_50
#   x_9 => view_14
# Graph fragment:
#   %cumsum : Tensor "i64[1, 16][16, 1]cuda:0" = PlaceHolder[target=cumsum]
#   %view_2 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [1, 16, 768]), kwargs = {})
#   %split : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_2, 256, 2), kwargs = {})
#   %view_5 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_2, [1, 16, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_5, [0, 2, 1, 3]), kwargs = {})
#   %view_3 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_3, [1, 16, -1, 64]), kwargs = {})
#   %permute : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_3, [0, 2, 1, 3]), kwargs = {})
#   %view_4 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_4, [1, 16, -1, 64]), kwargs = {})
#   %permute_1 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_4, [0, 2, 1, 3]), kwargs = {})
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, 16][16, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, 16][16, 16, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 16][16, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 16, 1][16, 16, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le), kwargs = {})
#   %iota_1 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[1, 1, 16, 1][16, 16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[1, 1, 1, 16][16, 16, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq), kwargs = {})
#   %expand : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=12] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [1, -1, 16, 16]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_2, %full_default_1), kwargs = {})
#   %expand_1 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_2, %permute, %permute_1, %expand_1, False), kwargs = {scale: 0.125})
#   %view_14 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [1, 16, 768]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_14, 256, 2), kwargs = {})
#   %view_17 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_13, [1, 16, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %view_15 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_14, [1, 16, -1, 64]), kwargs = {})
#   %permute_4 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_15, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_15, [1, 16, -1, 64]), kwargs = {})
#   %permute_5 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %full_default_4 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_4, %full_default_3), kwargs = {})
#   %expand_2 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_1 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_6, %permute_4, %permute_5, %expand_2, False), kwargs = {scale: 0.125})
#   %view_26 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_8, [1, 16, 768]), kwargs = {})
#   %split_2 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_26, 256, 2), kwargs = {})
#   %view_29 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_24, [1, 16, -1, 64]), kwargs = {})
#   %permute_10 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_29, [0, 2, 1, 3]), kwargs = {})
#   %view_27 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_25, [1, 16, -1, 64]), kwargs = {})
#   %permute_8 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_27, [0, 2, 1, 3]), kwargs = {})
#   %view_28 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_26, [1, 16, -1, 64]), kwargs = {})
#   %permute_9 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_28, [0, 2, 1, 3]), kwargs = {})
#   %full_default_6 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_5 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_2 : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_6, %full_default_5), kwargs = {})
#   %expand_3 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_2, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_2 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_10, %permute_8, %permute_9, %expand_3, False), kwargs = {scale: 0.125})
#   %view_38 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_12, [1, 16, 768]), kwargs = {})
#   %split_3 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_38, 256, 2), kwargs = {})
#   %view_41 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_35, [1, 16, -1, 64]), kwargs = {})
#   %permute_14 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_41, [0, 2, 1, 3]), kwargs = {})
#   %view_39 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_36, [1, 16, -1, 64]), kwargs = {})
#   %permute_12 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_39, [0, 2, 1, 3]), kwargs = {})
#   %view_40 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_37, [1, 16, -1, 64]), kwargs = {})
#   %permute_13 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_40, [0, 2, 1, 3]), kwargs = {})
#   %full_default_8 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_7 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_3 : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_8, %full_default_7), kwargs = {})
#   %expand_4 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_3, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_3 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_14, %permute_12, %permute_13, %expand_4, False), kwargs = {scale: 0.125})
#   %view_50 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_16, [1, 16, 768]), kwargs = {})
#   %split_4 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_50, 256, 2), kwargs = {})
#   %view_53 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_46, [1, 16, -1, 64]), kwargs = {})
#   %permute_18 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_53, [0, 2, 1, 3]), kwargs = {})
#   %view_51 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_47, [1, 16, -1, 64]), kwargs = {})
#   %permute_16 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_51, [0, 2, 1, 3]), kwargs = {})
#   %view_52 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_48, [1, 16, -1, 64]), kwargs = {})
#   %permute_17 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_52, [0, 2, 1, 3]), kwargs = {})
#   %full_default_10 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_9 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_4 : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_10, %full_default_9), kwargs = {})
#   %expand_5 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_4, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_4 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_18, %permute_16, %permute_17, %expand_5, False), kwargs = {scale: 0.125})
#   return %buf6,%buf26,%buf46,%buf66,%buf86
triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 256}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 5, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 10368}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2(in_ptr0, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, xnumel, XBLOCK : tl.constexpr):
    xnumel = 256
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x1 = xindex // 16
    x2 = xindex
    tmp5 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], True, tl.int1)
    tmp4 = tmp3 & tmp2
    tmp7 = tmp5 == tmp6
    tmp8 = tmp4 & tmp7
    tmp9 = tl.full([1], 0.0, tl.float32)
    tmp10 = tl.full([1], float("-inf"), tl.float32)
    tmp11 = tl.where(tmp8, tmp9, tmp10)
    tl.store(out_ptr0 + (x2), tmp11, xmask)
    tl.store(out_ptr1 + (x2), tmp11, xmask)
    tl.store(out_ptr2 + (x2), tmp11, xmask)
    tl.store(out_ptr3 + (x2), tmp11, xmask)
    tl.store(out_ptr4 + (x2), tmp11, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/4y/c4yco5ako5plxsj6dz2mcndygel67d6i3md7g4qodzqpee2sv5gd.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_2, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.addmm, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_3 => add_6
#   hidden_states_4 => add_7, add_8, mul_2, mul_3, rsqrt_1, sub_3, var_mean_1
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   x_2 => add_tensor_35
#   x_3 => view_8
# Graph fragment:
#   %arg7_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg7_1]
#   %mm_default_35 : Tensor "f32[16, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default_35]
#   %arg0_1 : Tensor "i64[1, 16][16, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[1024, 256][256, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[256, 256][256, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %add_6 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0" = PlaceHolder[target=add_6]
#   %getitem_10 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=getitem_10]
#   %buf15 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=buf15]
#   %arg9_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg9_1]
#   %arg10_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg10_1]
#   %embedding : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %add_tensor_35 : Tensor "f32[16, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg7_1, %mm_default_35), kwargs = {})
#   %view_8 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_35, [1, 16, 256]), kwargs = {})
#   %add_6 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_8, %add_1), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_6, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_6, %getitem_10), kwargs = {})
#   %add_7 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_9, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_2 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_1), kwargs = {})
#   %mul_3 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %arg9_1), kwargs = {})
#   %add_8 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %arg10_1), kwargs = {})
#   return %add_6,%getitem_10,%buf15,%add_8
triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_3 = async_compile.triton('triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 128, 'r0_': 101376}}
)
@triton.jit
def triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_3(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr3 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp36 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp38 = tl.load(in_ptr5 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tl.full([1, 1], 1024, tl.int32)
    tmp5 = tmp3 + tmp4
    tmp6 = tmp3 < 0
    tmp7 = tl.where(tmp6, tmp5, tmp3)
    tl.device_assert(((0 <= tmp7) & (tmp7 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp7 < 1024")
    tmp9 = tl.load(in_ptr2 + (r0_1 + 256*tmp7), xmask, other=0.0)
    tmp11 = tmp9 + tmp10
    tmp12 = tmp2 + tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(xmask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = tl.full([1, 1], 256, tl.int32)
    tmp21 = tmp20.to(tl.float32)
    tmp22 = (tmp19 / tmp21)
    tmp23 = tmp13 - tmp22
    tmp24 = tmp23 * tmp23
    tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
    tmp27 = tl.where(xmask, tmp25, 0)
    tmp28 = tl.sum(tmp27, 1)[:, None].to(tl.float32)
    tmp29 = tmp12 - tmp22
    tmp30 = tl.full([1, 1], 256.0, tl.float32)
    tmp31 = (tmp28 / tmp30)
    tmp32 = tl.full([1, 1], 1e-05, tl.float32)
    tmp33 = tmp31 + tmp32
    tmp34 = libdevice.rsqrt(tmp33)
    tmp35 = tmp29 * tmp34
    tmp37 = tmp35 * tmp36
    tmp39 = tmp37 + tmp38
    tl.store(in_out_ptr0 + (r0_1 + 256*x0), tmp12, xmask)
    tl.store(out_ptr2 + (r0_1 + 256*x0), tmp39, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/qq/cqqeuzcpbaltggxgxok3k5bqydx3tnwqrdno455xjdqazxdpvu5e.py
# Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
# Source node to ATen node mapping:
#   add_5 => add_9
#   add_6 => add_10
#   hidden_states_5 => mul_7
#   mul => mul_4
#   mul_1 => mul_5
#   mul_2 => mul_6
#   pow_1 => pow_1
#   tanh => tanh
#   x_4 => add_tensor_34
#   x_5 => view_10
# Graph fragment:
#   %arg11_1 : Tensor "f32[1024][1]cuda:0" = PlaceHolder[target=arg11_1]
#   %mm_default_34 : Tensor "f32[16, 1024][1024, 1]cuda:0" = PlaceHolder[target=mm_default_34]
#   %add_tensor_34 : Tensor "f32[16, 1024][1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg11_1, %mm_default_34), kwargs = {})
#   %view_10 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_34, [1, 16, 1024]), kwargs = {})
#   %mul_4 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_10, 0.5), kwargs = {})
#   %pow_1 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_10, 3.0), kwargs = {})
#   %mul_5 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_1, 0.044715), kwargs = {})
#   %add_9 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_10, %mul_5), kwargs = {})
#   %mul_6 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_9, 0.7978845608028654), kwargs = {})
#   %tanh : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_6,), kwargs = {})
#   %add_10 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh, 1.0), kwargs = {})
#   %mul_7 : Tensor "f32[1, 16, 1024][16384, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_10), kwargs = {})
#   return %mul_7
triton_poi_fused_add_addmm_mul_pow_tanh_view_4 = async_compile.triton('triton_poi_fused_add_addmm_mul_pow_tanh_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 200704}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_addmm_mul_pow_tanh_view_4(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16384
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 1024)
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (x2), None)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tmp2 * tmp2
    tmp6 = tmp5 * tmp2
    tmp7 = tl.full([1], 0.044715, tl.float32)
    tmp8 = tmp6 * tmp7
    tmp9 = tmp2 + tmp8
    tmp10 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = libdevice.tanh(tmp11)
    tmp13 = tl.full([1], 1.0, tl.float32)
    tmp14 = tmp12 + tmp13
    tmp15 = tmp4 * tmp14
    tl.store(in_out_ptr0 + (x2), tmp15, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/g6/cg62wcoxpawcum335qdfrf5jwoqxre7pnz2otzka5vrzn7wxrosv.py
# Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_7 => add_11
#   hidden_states_8 => add_12, add_13, mul_8, mul_9, rsqrt_2, sub_4, var_mean_2
#   x_6 => add_tensor_33
#   x_7 => view_12
# Graph fragment:
#   %add_6 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0" = PlaceHolder[target=add_6]
#   %arg13_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %mm_default_33 : Tensor "f32[16, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default_33]
#   %getitem_12 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=getitem_12]
#   %buf22 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=buf22]
#   %arg15_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg15_1]
#   %arg16_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg16_1]
#   %add_tensor_33 : Tensor "f32[16, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg13_1, %mm_default_33), kwargs = {})
#   %view_12 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_33, [1, 16, 256]), kwargs = {})
#   %add_11 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_11, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_4 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_11, %getitem_12), kwargs = {})
#   %add_12 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_11, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_12,), kwargs = {})
#   %mul_8 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %rsqrt_2), kwargs = {})
#   %mul_9 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_8, %arg15_1), kwargs = {})
#   %add_13 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_9, %arg16_1), kwargs = {})
#   return %getitem_12,%buf22,%add_13
triton_per_fused_add_addmm_native_layer_norm_view_5 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 68608}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_view_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp28 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp3 = tmp1 + tmp2
    tmp4 = tmp0 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(xmask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.full([1, 1], 256, tl.int32)
    tmp13 = tmp12.to(tl.float32)
    tmp14 = (tmp11 / tmp13)
    tmp15 = tmp5 - tmp14
    tmp16 = tmp15 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tmp4 - tmp14
    tmp22 = tl.full([1, 1], 256.0, tl.float32)
    tmp23 = (tmp20 / tmp22)
    tmp24 = tl.full([1, 1], 1e-05, tl.float32)
    tmp25 = tmp23 + tmp24
    tmp26 = libdevice.rsqrt(tmp25)
    tmp27 = tmp21 * tmp26
    tmp29 = tmp27 * tmp28
    tmp31 = tmp29 + tmp30
    tl.store(out_ptr2 + (r0_1 + 256*x0), tmp31, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/rd/crdjb523cjfqnl2in3q56qrfw3u6xd3blckgxeshmeoy2cwtn6lv.py
# Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, x_10, x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_10 => add_15, add_16, mul_10, mul_11, rsqrt_3, sub_5, var_mean_3
#   hidden_states_7 => add_11
#   hidden_states_9 => add_14
#   x_10 => add_tensor_32
#   x_11 => view_20
#   x_6 => add_tensor_33
#   x_7 => view_12
# Graph fragment:
#   %arg19_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg19_1]
#   %mm_default_32 : Tensor "f32[16, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default_32]
#   %add_6 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0" = PlaceHolder[target=add_6]
#   %arg13_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %mm_default_33 : Tensor "f32[16, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default_33]
#   %add_14 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0" = PlaceHolder[target=add_14]
#   %getitem_21 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=getitem_21]
#   %buf35 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=buf35]
#   %arg21_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg21_1]
#   %arg22_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %add_tensor_33 : Tensor "f32[16, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg13_1, %mm_default_33), kwargs = {})
#   %view_12 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_33, [1, 16, 256]), kwargs = {})
#   %add_11 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %add_tensor_32 : Tensor "f32[16, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg19_1, %mm_default_32), kwargs = {})
#   %view_20 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_32, [1, 16, 256]), kwargs = {})
#   %add_14 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_20, %add_11), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_14, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_5 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_14, %getitem_21), kwargs = {})
#   %add_15 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_20, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_10 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_5, %rsqrt_3), kwargs = {})
#   %mul_11 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_10, %arg21_1), kwargs = {})
#   %add_16 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_11, %arg22_1), kwargs = {})
#   return %add_14,%getitem_21,%buf35,%add_16
triton_per_fused_add_addmm_native_layer_norm_view_6 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 118784}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_view_6(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp4 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr3 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp32 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp34 = tl.load(in_ptr5 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp6 = tmp4 + tmp5
    tmp7 = tmp3 + tmp6
    tmp8 = tmp2 + tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = tl.full([1, 1], 256, tl.int32)
    tmp17 = tmp16.to(tl.float32)
    tmp18 = (tmp15 / tmp17)
    tmp19 = tmp9 - tmp18
    tmp20 = tmp19 * tmp19
    tmp21 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
    tmp23 = tl.where(xmask, tmp21, 0)
    tmp24 = tl.sum(tmp23, 1)[:, None].to(tl.float32)
    tmp25 = tmp8 - tmp18
    tmp26 = tl.full([1, 1], 256.0, tl.float32)
    tmp27 = (tmp24 / tmp26)
    tmp28 = tl.full([1, 1], 1e-05, tl.float32)
    tmp29 = tmp27 + tmp28
    tmp30 = libdevice.rsqrt(tmp29)
    tmp31 = tmp25 * tmp30
    tmp33 = tmp31 * tmp32
    tmp35 = tmp33 + tmp34
    tl.store(in_out_ptr0 + (r0_1 + 256*x0), tmp8, xmask)
    tl.store(out_ptr2 + (r0_1 + 256*x0), tmp35, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/c4/cc4jvhcwoecsrf2upoljdousdifmdqcmxltlc6y33cryds5i52ga.py
# Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_81, split_10, view_115, query_states_21, view_113, key_states_21, view_114, value_states_21, attn_output_40, x_89, split_11, view_126, query_states_23, view_124, key_states_23, view_125, value_states_23, attn_output_44], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand
#   attn_output_40 => _scaled_dot_product_efficient_attention_10, expand_11, full_default_21, full_default_22, where_10
#   attn_output_44 => _scaled_dot_product_efficient_attention_11, expand_12, full_default_23, full_default_24, where_11
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   eq => eq
#   getitem_5 => index
#   getitem_6 => index_1
#   key_states_21 => permute_40
#   key_states_23 => permute_44
#   kv_arange => add_3
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le
#   q_arange => add_2
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states_21 => permute_42
#   query_states_23 => permute_46
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   split_10 => split_10
#   split_11 => split_11
#   value_states_21 => permute_41
#   value_states_23 => permute_45
#   view_113 => view_123
#   view_114 => view_124
#   view_115 => view_125
#   view_124 => view_135
#   view_125 => view_136
#   view_126 => view_137
#   x_81 => view_122
#   x_89 => view_134
# Graph fragment:
#   %cumsum : Tensor "i64[1, 16][16, 1]cuda:0" = PlaceHolder[target=cumsum]
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, 16][16, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, 16][16, 16, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 16][16, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 16, 1][16, 16, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le), kwargs = {})
#   %iota_1 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[1, 1, 16, 1][16, 16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[1, 1, 1, 16][16, 16, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq), kwargs = {})
#   %expand : Tensor "b8[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=12] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [1, -1, 16, 16]), kwargs = {})
#   %view_122 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_40, [1, 16, 768]), kwargs = {})
#   %split_10 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_122, 256, 2), kwargs = {})
#   %view_125 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_112, [1, 16, -1, 64]), kwargs = {})
#   %permute_42 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_125, [0, 2, 1, 3]), kwargs = {})
#   %view_123 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_113, [1, 16, -1, 64]), kwargs = {})
#   %permute_40 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_123, [0, 2, 1, 3]), kwargs = {})
#   %view_124 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_114, [1, 16, -1, 64]), kwargs = {})
#   %permute_41 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_124, [0, 2, 1, 3]), kwargs = {})
#   %full_default_22 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_21 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_10 : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_22, %full_default_21), kwargs = {})
#   %expand_11 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_10, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_10 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_42, %permute_40, %permute_41, %expand_11, False), kwargs = {scale: 0.125})
#   %view_134 : Tensor "f32[1, 16, 768][12288, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_44, [1, 16, 768]), kwargs = {})
#   %split_11 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_134, 256, 2), kwargs = {})
#   %view_137 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_123, [1, 16, -1, 64]), kwargs = {})
#   %permute_46 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_137, [0, 2, 1, 3]), kwargs = {})
#   %view_135 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_124, [1, 16, -1, 64]), kwargs = {})
#   %permute_44 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_135, [0, 2, 1, 3]), kwargs = {})
#   %view_136 : Tensor "f32[1, 16, 4, 64][12288, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_125, [1, 16, -1, 64]), kwargs = {})
#   %permute_45 : Tensor "f32[1, 4, 16, 64][12288, 64, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_136, [0, 2, 1, 3]), kwargs = {})
#   %full_default_24 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_23 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_11 : Tensor "f32[1, 1, 16, 16][256, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_24, %full_default_23), kwargs = {})
#   %expand_12 : Tensor "f32[1, 4, 16, 16][256, 0, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_11, [1, 4, 16, 16]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_11 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_46, %permute_44, %permute_45, %expand_12, False), kwargs = {scale: 0.125})
#   return %buf206,%buf226
triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_7 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 256}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4224}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_7(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 256
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x1 = xindex // 16
    x2 = xindex
    tmp5 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], True, tl.int1)
    tmp4 = tmp3 & tmp2
    tmp7 = tmp5 == tmp6
    tmp8 = tmp4 & tmp7
    tmp9 = tl.full([1], 0.0, tl.float32)
    tmp10 = tl.full([1], float("-inf"), tl.float32)
    tmp11 = tl.where(tmp8, tmp9, tmp10)
    tl.store(out_ptr0 + (x2), tmp11, xmask)
    tl.store(out_ptr1 + (x2), tmp11, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/5r/c5rq5qv2jpldpjd5ckvffwv56a5cjr6mrevqnzqm3wv5c6z6wuyq.py
# Topologically Sorted Source Nodes: [x_94, x_95, hidden_states_73, hidden_states_74], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_73 => add_99
#   hidden_states_74 => add_100, add_101, mul_96, mul_97, rsqrt_24, sub_26, var_mean_24
#   x_94 => add_tensor
#   x_95 => view_144
# Graph fragment:
#   %add_94 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0" = PlaceHolder[target=add_94]
#   %arg145_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg145_1]
#   %mm_default : Tensor "f32[16, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %getitem_133 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=getitem_133]
#   %buf242 : Tensor "f32[1, 16, 1][16, 1, 16]cuda:0" = PlaceHolder[target=buf242]
#   %arg147_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg147_1]
#   %arg148_1 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=arg148_1]
#   %add_tensor : Tensor "f32[16, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg145_1, %mm_default), kwargs = {})
#   %view_144 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor, [1, 16, 256]), kwargs = {})
#   %add_99 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_94, %view_144), kwargs = {})
#   %var_mean_24 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_99, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_26 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_99, %getitem_133), kwargs = {})
#   %add_100 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_132, 1e-05), kwargs = {})
#   %rsqrt_24 : Tensor "f32[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_100,), kwargs = {})
#   %mul_96 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_26, %rsqrt_24), kwargs = {})
#   %mul_97 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_96, %arg147_1), kwargs = {})
#   %add_101 : Tensor "f32[1, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_97, %arg148_1), kwargs = {})
#   return %getitem_133,%buf242,%add_101
triton_per_fused_add_addmm_native_layer_norm_view_8 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_view_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 68608}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_view_8(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr1 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp28 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp3 = tmp1 + tmp2
    tmp4 = tmp0 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(xmask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.full([1, 1], 256, tl.int32)
    tmp13 = tmp12.to(tl.float32)
    tmp14 = (tmp11 / tmp13)
    tmp15 = tmp5 - tmp14
    tmp16 = tmp15 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tmp4 - tmp14
    tmp22 = tl.full([1, 1], 256.0, tl.float32)
    tmp23 = (tmp20 / tmp22)
    tmp24 = tl.full([1, 1], 1e-05, tl.float32)
    tmp25 = tmp23 + tmp24
    tmp26 = libdevice.rsqrt(tmp25)
    tmp27 = tmp21 * tmp26
    tmp29 = tmp27 * tmp28
    tmp31 = tmp29 + tmp30
    tl.store(in_out_ptr0 + (r0_1 + 256*x0), tmp31, xmask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, arg52_1, arg53_1, arg54_1, arg55_1, arg56_1, arg57_1, arg58_1, arg59_1, arg60_1, arg61_1, arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, arg71_1, arg72_1, arg73_1, arg74_1, arg75_1, arg76_1, arg77_1, arg78_1, arg79_1, arg80_1, arg81_1, arg82_1, arg83_1, arg84_1, arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, arg90_1, arg91_1, arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, arg97_1, arg98_1, arg99_1, arg100_1, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg112_1, arg113_1, arg114_1, arg115_1, arg116_1, arg117_1, arg118_1, arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, arg125_1, arg126_1, arg127_1, arg128_1, arg129_1, arg130_1, arg131_1, arg132_1, arg133_1, arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, arg144_1, arg145_1, arg146_1, arg147_1, arg148_1 = args
        args.clear()
        assert_size_stride(arg0_1, (1, 16), (16, 1))
        assert_size_stride(arg1_1, (1024, 256), (256, 1))
        assert_size_stride(arg2_1, (256, 256), (256, 1))
        assert_size_stride(arg3_1, (256, ), (1, ))
        assert_size_stride(arg4_1, (256, ), (1, ))
        assert_size_stride(arg5_1, (768, ), (1, ))
        assert_size_stride(arg6_1, (256, 768), (768, 1))
        assert_size_stride(arg7_1, (256, ), (1, ))
        assert_size_stride(arg8_1, (256, 256), (256, 1))
        assert_size_stride(arg9_1, (256, ), (1, ))
        assert_size_stride(arg10_1, (256, ), (1, ))
        assert_size_stride(arg11_1, (1024, ), (1, ))
        assert_size_stride(arg12_1, (256, 1024), (1024, 1))
        assert_size_stride(arg13_1, (256, ), (1, ))
        assert_size_stride(arg14_1, (1024, 256), (256, 1))
        assert_size_stride(arg15_1, (256, ), (1, ))
        assert_size_stride(arg16_1, (256, ), (1, ))
        assert_size_stride(arg17_1, (768, ), (1, ))
        assert_size_stride(arg18_1, (256, 768), (768, 1))
        assert_size_stride(arg19_1, (256, ), (1, ))
        assert_size_stride(arg20_1, (256, 256), (256, 1))
        assert_size_stride(arg21_1, (256, ), (1, ))
        assert_size_stride(arg22_1, (256, ), (1, ))
        assert_size_stride(arg23_1, (1024, ), (1, ))
        assert_size_stride(arg24_1, (256, 1024), (1024, 1))
        assert_size_stride(arg25_1, (256, ), (1, ))
        assert_size_stride(arg26_1, (1024, 256), (256, 1))
        assert_size_stride(arg27_1, (256, ), (1, ))
        assert_size_stride(arg28_1, (256, ), (1, ))
        assert_size_stride(arg29_1, (768, ), (1, ))
        assert_size_stride(arg30_1, (256, 768), (768, 1))
        assert_size_stride(arg31_1, (256, ), (1, ))
        assert_size_stride(arg32_1, (256, 256), (256, 1))
        assert_size_stride(arg33_1, (256, ), (1, ))
        assert_size_stride(arg34_1, (256, ), (1, ))
        assert_size_stride(arg35_1, (1024, ), (1, ))
        assert_size_stride(arg36_1, (256, 1024), (1024, 1))
        assert_size_stride(arg37_1, (256, ), (1, ))
        assert_size_stride(arg38_1, (1024, 256), (256, 1))
        assert_size_stride(arg39_1, (256, ), (1, ))
        assert_size_stride(arg40_1, (256, ), (1, ))
        assert_size_stride(arg41_1, (768, ), (1, ))
        assert_size_stride(arg42_1, (256, 768), (768, 1))
        assert_size_stride(arg43_1, (256, ), (1, ))
        assert_size_stride(arg44_1, (256, 256), (256, 1))
        assert_size_stride(arg45_1, (256, ), (1, ))
        assert_size_stride(arg46_1, (256, ), (1, ))
        assert_size_stride(arg47_1, (1024, ), (1, ))
        assert_size_stride(arg48_1, (256, 1024), (1024, 1))
        assert_size_stride(arg49_1, (256, ), (1, ))
        assert_size_stride(arg50_1, (1024, 256), (256, 1))
        assert_size_stride(arg51_1, (256, ), (1, ))
        assert_size_stride(arg52_1, (256, ), (1, ))
        assert_size_stride(arg53_1, (768, ), (1, ))
        assert_size_stride(arg54_1, (256, 768), (768, 1))
        assert_size_stride(arg55_1, (256, ), (1, ))
        assert_size_stride(arg56_1, (256, 256), (256, 1))
        assert_size_stride(arg57_1, (256, ), (1, ))
        assert_size_stride(arg58_1, (256, ), (1, ))
        assert_size_stride(arg59_1, (1024, ), (1, ))
        assert_size_stride(arg60_1, (256, 1024), (1024, 1))
        assert_size_stride(arg61_1, (256, ), (1, ))
        assert_size_stride(arg62_1, (1024, 256), (256, 1))
        assert_size_stride(arg63_1, (256, ), (1, ))
        assert_size_stride(arg64_1, (256, ), (1, ))
        assert_size_stride(arg65_1, (768, ), (1, ))
        assert_size_stride(arg66_1, (256, 768), (768, 1))
        assert_size_stride(arg67_1, (256, ), (1, ))
        assert_size_stride(arg68_1, (256, 256), (256, 1))
        assert_size_stride(arg69_1, (256, ), (1, ))
        assert_size_stride(arg70_1, (256, ), (1, ))
        assert_size_stride(arg71_1, (1024, ), (1, ))
        assert_size_stride(arg72_1, (256, 1024), (1024, 1))
        assert_size_stride(arg73_1, (256, ), (1, ))
        assert_size_stride(arg74_1, (1024, 256), (256, 1))
        assert_size_stride(arg75_1, (256, ), (1, ))
        assert_size_stride(arg76_1, (256, ), (1, ))
        assert_size_stride(arg77_1, (768, ), (1, ))
        assert_size_stride(arg78_1, (256, 768), (768, 1))
        assert_size_stride(arg79_1, (256, ), (1, ))
        assert_size_stride(arg80_1, (256, 256), (256, 1))
        assert_size_stride(arg81_1, (256, ), (1, ))
        assert_size_stride(arg82_1, (256, ), (1, ))
        assert_size_stride(arg83_1, (1024, ), (1, ))
        assert_size_stride(arg84_1, (256, 1024), (1024, 1))
        assert_size_stride(arg85_1, (256, ), (1, ))
        assert_size_stride(arg86_1, (1024, 256), (256, 1))
        assert_size_stride(arg87_1, (256, ), (1, ))
        assert_size_stride(arg88_1, (256, ), (1, ))
        assert_size_stride(arg89_1, (768, ), (1, ))
        assert_size_stride(arg90_1, (256, 768), (768, 1))
        assert_size_stride(arg91_1, (256, ), (1, ))
        assert_size_stride(arg92_1, (256, 256), (256, 1))
        assert_size_stride(arg93_1, (256, ), (1, ))
        assert_size_stride(arg94_1, (256, ), (1, ))
        assert_size_stride(arg95_1, (1024, ), (1, ))
        assert_size_stride(arg96_1, (256, 1024), (1024, 1))
        assert_size_stride(arg97_1, (256, ), (1, ))
        assert_size_stride(arg98_1, (1024, 256), (256, 1))
        assert_size_stride(arg99_1, (256, ), (1, ))
        assert_size_stride(arg100_1, (256, ), (1, ))
        assert_size_stride(arg101_1, (768, ), (1, ))
        assert_size_stride(arg102_1, (256, 768), (768, 1))
        assert_size_stride(arg103_1, (256, ), (1, ))
        assert_size_stride(arg104_1, (256, 256), (256, 1))
        assert_size_stride(arg105_1, (256, ), (1, ))
        assert_size_stride(arg106_1, (256, ), (1, ))
        assert_size_stride(arg107_1, (1024, ), (1, ))
        assert_size_stride(arg108_1, (256, 1024), (1024, 1))
        assert_size_stride(arg109_1, (256, ), (1, ))
        assert_size_stride(arg110_1, (1024, 256), (256, 1))
        assert_size_stride(arg111_1, (256, ), (1, ))
        assert_size_stride(arg112_1, (256, ), (1, ))
        assert_size_stride(arg113_1, (768, ), (1, ))
        assert_size_stride(arg114_1, (256, 768), (768, 1))
        assert_size_stride(arg115_1, (256, ), (1, ))
        assert_size_stride(arg116_1, (256, 256), (256, 1))
        assert_size_stride(arg117_1, (256, ), (1, ))
        assert_size_stride(arg118_1, (256, ), (1, ))
        assert_size_stride(arg119_1, (1024, ), (1, ))
        assert_size_stride(arg120_1, (256, 1024), (1024, 1))
        assert_size_stride(arg121_1, (256, ), (1, ))
        assert_size_stride(arg122_1, (1024, 256), (256, 1))
        assert_size_stride(arg123_1, (256, ), (1, ))
        assert_size_stride(arg124_1, (256, ), (1, ))
        assert_size_stride(arg125_1, (768, ), (1, ))
        assert_size_stride(arg126_1, (256, 768), (768, 1))
        assert_size_stride(arg127_1, (256, ), (1, ))
        assert_size_stride(arg128_1, (256, 256), (256, 1))
        assert_size_stride(arg129_1, (256, ), (1, ))
        assert_size_stride(arg130_1, (256, ), (1, ))
        assert_size_stride(arg131_1, (1024, ), (1, ))
        assert_size_stride(arg132_1, (256, 1024), (1024, 1))
        assert_size_stride(arg133_1, (256, ), (1, ))
        assert_size_stride(arg134_1, (1024, 256), (256, 1))
        assert_size_stride(arg135_1, (256, ), (1, ))
        assert_size_stride(arg136_1, (256, ), (1, ))
        assert_size_stride(arg137_1, (768, ), (1, ))
        assert_size_stride(arg138_1, (256, 768), (768, 1))
        assert_size_stride(arg139_1, (256, ), (1, ))
        assert_size_stride(arg140_1, (256, 256), (256, 1))
        assert_size_stride(arg141_1, (256, ), (1, ))
        assert_size_stride(arg142_1, (256, ), (1, ))
        assert_size_stride(arg143_1, (1024, ), (1, ))
        assert_size_stride(arg144_1, (256, 1024), (1024, 1))
        assert_size_stride(arg145_1, (256, ), (1, ))
        assert_size_stride(arg146_1, (1024, 256), (256, 1))
        assert_size_stride(arg147_1, (256, ), (1, ))
        assert_size_stride(arg148_1, (256, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf3 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_0[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_0, triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0, call_slot=_fastlaunch_call_0)
            _fastlaunch_fn(arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf3, 16, 256, stream=stream0)
            del arg3_1
            del arg4_1
            buf4 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2, view_1, x], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.addmm(arg5_1, reinterpret_tensor(buf3, (16, 256), (256, 1), 0), arg6_1, alpha=1, beta=1, out=buf4)
            del arg5_1
            del arg6_1
            buf5 = empty_strided_cuda((1, 16), (16, 1), torch.int64)
            # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_1[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_1, triton_per_fused_add_arange_cat_cumsum_ne_slice_sub_unsqueeze_1, call_slot=_fastlaunch_call_1)
            _fastlaunch_fn(buf5, 1, 16, stream=stream0)
            buf6 = empty_strided_cuda((1, 1, 16, 16), (256, 0, 16, 1), torch.float32)
            buf26 = empty_strided_cuda((1, 1, 16, 16), (256, 0, 16, 1), torch.float32)
            buf46 = empty_strided_cuda((1, 1, 16, 16), (256, 0, 16, 1), torch.float32)
            buf66 = empty_strided_cuda((1, 1, 16, 16), (256, 0, 16, 1), torch.float32)
            buf86 = empty_strided_cuda((1, 1, 16, 16), (256, 0, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4, x_17, split_2, view_27, query_states_5, view_25, key_states_5, view_26, value_states_5, attn_output_8, x_25, split_3, view_38, query_states_7, view_36, key_states_7, view_37, value_states_7, attn_output_12, x_33, split_4, view_49, query_states_9, view_47, key_states_9, view_48, value_states_9, attn_output_16], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_2[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_2, triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2, call_slot=_fastlaunch_call_2)
            _fastlaunch_fn(buf5, buf6, buf26, buf46, buf66, buf86, 256, stream=stream0)
            # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf7 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf4, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf4, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf4, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf6, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf4
            del buf6
            buf8 = buf7[0]
            assert_size_stride(buf8, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf8, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf7
            buf12 = reinterpret_tensor(buf3, (16, 256), (256, 1), 0); del buf3  # reuse
            # Topologically Sorted Source Nodes: [transpose_3, reshape, view_6, x_2], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf8, (16, 256), (256, 1), 0), arg8_1, out=buf12)
            del arg8_1
            buf13 = reinterpret_tensor(buf12, (1, 16, 256), (4096, 256, 1), 0); del buf12  # reuse
            buf17 = reinterpret_tensor(buf8, (1, 16, 256), (4096, 256, 1), 0); del buf8  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_2, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.addmm, aten.view, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_3[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_3, triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_3, call_slot=_fastlaunch_call_3)
            _fastlaunch_fn(buf13, arg7_1, arg0_1, arg1_1, arg2_1, arg9_1, arg10_1, buf17, 16, 256, stream=stream0)
            del arg0_1
            del arg10_1
            del arg2_1
            del arg7_1
            del arg9_1
            buf18 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_4, view_8, x_4], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf17, (16, 256), (256, 1), 0), arg12_1, out=buf18)
            del arg12_1
            del buf17
            buf19 = reinterpret_tensor(buf18, (1, 16, 1024), (16384, 1024, 1), 0); del buf18  # reuse
            # Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_4[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_4, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_4)
            _fastlaunch_fn(buf19, arg11_1, 16384, stream=stream0)
            del arg11_1
            buf20 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5, view_10, x_6], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf19, (16, 1024), (1024, 1), 0), arg14_1, out=buf20)
            del arg14_1
            del buf19
            buf24 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_5[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_5, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_5)
            _fastlaunch_fn(buf13, arg13_1, buf20, arg15_1, arg16_1, buf24, 16, 256, stream=stream0)
            del arg15_1
            del arg16_1
            buf25 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8, view_12, x_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg17_1, reinterpret_tensor(buf24, (16, 256), (256, 1), 0), arg18_1, alpha=1, beta=1, out=buf25)
            del arg17_1
            del arg18_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf27 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf25, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf25, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf25, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf26, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf25
            buf28 = buf27[0]
            assert_size_stride(buf28, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf28, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf27
            buf32 = reinterpret_tensor(buf24, (16, 256), (256, 1), 0); del buf24  # reuse
            # Topologically Sorted Source Nodes: [transpose_7, reshape_1, view_17, x_10], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf28, (16, 256), (256, 1), 0), arg20_1, out=buf32)
            del arg20_1
            buf33 = reinterpret_tensor(buf32, (1, 16, 256), (4096, 256, 1), 0); del buf32  # reuse
            buf37 = reinterpret_tensor(buf28, (1, 16, 256), (4096, 256, 1), 0); del buf28  # reuse
            # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, x_10, x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_6[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_6, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_6)
            _fastlaunch_fn(buf33, arg19_1, buf13, arg13_1, buf20, arg21_1, arg22_1, buf37, 16, 256, stream=stream0)
            del arg13_1
            del arg19_1
            del arg21_1
            del arg22_1
            del buf13
            del buf20
            buf38 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_10, view_19, x_12], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf37, (16, 256), (256, 1), 0), arg24_1, out=buf38)
            del arg24_1
            del buf37
            buf39 = reinterpret_tensor(buf38, (1, 16, 1024), (16384, 1024, 1), 0); del buf38  # reuse
            # Topologically Sorted Source Nodes: [x_12, x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_7[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_7, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_7)
            _fastlaunch_fn(buf39, arg23_1, 16384, stream=stream0)
            del arg23_1
            buf40 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_12, x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11, view_21, x_14], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf39, (16, 1024), (1024, 1), 0), arg26_1, out=buf40)
            del arg26_1
            del buf39
            buf44 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_8[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_8, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_8)
            _fastlaunch_fn(buf33, arg25_1, buf40, arg27_1, arg28_1, buf44, 16, 256, stream=stream0)
            del arg27_1
            del arg28_1
            buf45 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14, view_23, x_16], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg29_1, reinterpret_tensor(buf44, (16, 256), (256, 1), 0), arg30_1, alpha=1, beta=1, out=buf45)
            del arg29_1
            del arg30_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_17, split_2, view_27, query_states_5, view_25, key_states_5, view_26, value_states_5, attn_output_8], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf47 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf45, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf45, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf45, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf46, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf45
            buf48 = buf47[0]
            assert_size_stride(buf48, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf48, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf47
            buf52 = reinterpret_tensor(buf44, (16, 256), (256, 1), 0); del buf44  # reuse
            # Topologically Sorted Source Nodes: [transpose_11, reshape_2, view_28, x_18], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf48, (16, 256), (256, 1), 0), arg32_1, out=buf52)
            del arg32_1
            buf53 = reinterpret_tensor(buf52, (1, 16, 256), (4096, 256, 1), 0); del buf52  # reuse
            buf57 = reinterpret_tensor(buf48, (1, 16, 256), (4096, 256, 1), 0); del buf48  # reuse
            # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, x_18, x_19, hidden_states_15, hidden_states_16], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_9[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_9, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_9)
            _fastlaunch_fn(buf53, arg31_1, buf33, arg25_1, buf40, arg33_1, arg34_1, buf57, 16, 256, stream=stream0)
            del arg25_1
            del arg31_1
            del arg33_1
            del arg34_1
            del buf33
            del buf40
            buf58 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_16, view_30, x_20], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf57, (16, 256), (256, 1), 0), arg36_1, out=buf58)
            del arg36_1
            del buf57
            buf59 = reinterpret_tensor(buf58, (1, 16, 1024), (16384, 1024, 1), 0); del buf58  # reuse
            # Topologically Sorted Source Nodes: [x_20, x_21, mul_8, pow_3, mul_9, add_13, mul_10, tanh_2, add_14, hidden_states_17], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_10[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_10, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_10)
            _fastlaunch_fn(buf59, arg35_1, 16384, stream=stream0)
            del arg35_1
            buf60 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_20, x_21, mul_8, pow_3, mul_9, add_13, mul_10, tanh_2, add_14, hidden_states_17, view_32, x_22], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf59, (16, 1024), (1024, 1), 0), arg38_1, out=buf60)
            del arg38_1
            del buf59
            buf64 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_22, x_23, hidden_states_19, hidden_states_20], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_11[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_11, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_11)
            _fastlaunch_fn(buf53, arg37_1, buf60, arg39_1, arg40_1, buf64, 16, 256, stream=stream0)
            del arg39_1
            del arg40_1
            buf65 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_22, x_23, hidden_states_19, hidden_states_20, view_34, x_24], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg41_1, reinterpret_tensor(buf64, (16, 256), (256, 1), 0), arg42_1, alpha=1, beta=1, out=buf65)
            del arg41_1
            del arg42_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_25, split_3, view_38, query_states_7, view_36, key_states_7, view_37, value_states_7, attn_output_12], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf67 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf65, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf65, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf65, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf66, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf65
            buf68 = buf67[0]
            assert_size_stride(buf68, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf68, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf67
            buf72 = reinterpret_tensor(buf64, (16, 256), (256, 1), 0); del buf64  # reuse
            # Topologically Sorted Source Nodes: [transpose_15, reshape_3, view_39, x_26], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf68, (16, 256), (256, 1), 0), arg44_1, out=buf72)
            del arg44_1
            buf73 = reinterpret_tensor(buf72, (1, 16, 256), (4096, 256, 1), 0); del buf72  # reuse
            buf77 = reinterpret_tensor(buf68, (1, 16, 256), (4096, 256, 1), 0); del buf68  # reuse
            # Topologically Sorted Source Nodes: [x_22, x_23, hidden_states_19, x_26, x_27, hidden_states_21, hidden_states_22], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_12[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_12, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_12)
            _fastlaunch_fn(buf73, arg43_1, buf53, arg37_1, buf60, arg45_1, arg46_1, buf77, 16, 256, stream=stream0)
            del arg37_1
            del arg43_1
            del arg45_1
            del arg46_1
            del buf53
            del buf60
            buf78 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_22, view_41, x_28], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf77, (16, 256), (256, 1), 0), arg48_1, out=buf78)
            del arg48_1
            del buf77
            buf79 = reinterpret_tensor(buf78, (1, 16, 1024), (16384, 1024, 1), 0); del buf78  # reuse
            # Topologically Sorted Source Nodes: [x_28, x_29, mul_12, pow_4, mul_13, add_17, mul_14, tanh_3, add_18, hidden_states_23], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_13[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_13, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_13)
            _fastlaunch_fn(buf79, arg47_1, 16384, stream=stream0)
            del arg47_1
            buf80 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_28, x_29, mul_12, pow_4, mul_13, add_17, mul_14, tanh_3, add_18, hidden_states_23, view_43, x_30], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf79, (16, 1024), (1024, 1), 0), arg50_1, out=buf80)
            del arg50_1
            del buf79
            buf84 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_30, x_31, hidden_states_25, hidden_states_26], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_14[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_14, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_14)
            _fastlaunch_fn(buf73, arg49_1, buf80, arg51_1, arg52_1, buf84, 16, 256, stream=stream0)
            del arg51_1
            del arg52_1
            buf85 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_30, x_31, hidden_states_25, hidden_states_26, view_45, x_32], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg53_1, reinterpret_tensor(buf84, (16, 256), (256, 1), 0), arg54_1, alpha=1, beta=1, out=buf85)
            del arg53_1
            del arg54_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_33, split_4, view_49, query_states_9, view_47, key_states_9, view_48, value_states_9, attn_output_16], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf87 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf85, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf85, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf85, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf86, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf85
            buf88 = buf87[0]
            assert_size_stride(buf88, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf88, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf87
            buf92 = reinterpret_tensor(buf84, (16, 256), (256, 1), 0); del buf84  # reuse
            # Topologically Sorted Source Nodes: [transpose_19, reshape_4, view_50, x_34], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf88, (16, 256), (256, 1), 0), arg56_1, out=buf92)
            del arg56_1
            buf93 = reinterpret_tensor(buf92, (1, 16, 256), (4096, 256, 1), 0); del buf92  # reuse
            buf97 = reinterpret_tensor(buf88, (1, 16, 256), (4096, 256, 1), 0); del buf88  # reuse
            # Topologically Sorted Source Nodes: [x_30, x_31, hidden_states_25, x_34, x_35, hidden_states_27, hidden_states_28], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_15[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_15, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_15)
            _fastlaunch_fn(buf93, arg55_1, buf73, arg49_1, buf80, arg57_1, arg58_1, buf97, 16, 256, stream=stream0)
            del arg49_1
            del arg55_1
            del arg57_1
            del arg58_1
            del buf73
            del buf80
            buf98 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_28, view_52, x_36], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf97, (16, 256), (256, 1), 0), arg60_1, out=buf98)
            del arg60_1
            del buf97
            buf99 = reinterpret_tensor(buf98, (1, 16, 1024), (16384, 1024, 1), 0); del buf98  # reuse
            # Topologically Sorted Source Nodes: [x_36, x_37, mul_16, pow_5, mul_17, add_21, mul_18, tanh_4, add_22, hidden_states_29], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_16[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_16, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_16)
            _fastlaunch_fn(buf99, arg59_1, 16384, stream=stream0)
            del arg59_1
            buf100 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_36, x_37, mul_16, pow_5, mul_17, add_21, mul_18, tanh_4, add_22, hidden_states_29, view_54, x_38], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf99, (16, 1024), (1024, 1), 0), arg62_1, out=buf100)
            del arg62_1
            del buf99
            buf104 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_38, x_39, hidden_states_31, hidden_states_32], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_17[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_17, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_17)
            _fastlaunch_fn(buf93, arg61_1, buf100, arg63_1, arg64_1, buf104, 16, 256, stream=stream0)
            del arg63_1
            del arg64_1
            buf105 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_38, x_39, hidden_states_31, hidden_states_32, view_56, x_40], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg65_1, reinterpret_tensor(buf104, (16, 256), (256, 1), 0), arg66_1, alpha=1, beta=1, out=buf105)
            del arg65_1
            del arg66_1
            buf106 = buf86; del buf86  # reuse
            buf126 = buf66; del buf66  # reuse
            buf146 = buf46; del buf46  # reuse
            buf166 = buf26; del buf26  # reuse
            buf186 = empty_strided_cuda((1, 1, 16, 16), (256, 0, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_41, split_5, view_60, query_states_11, view_58, key_states_11, view_59, value_states_11, attn_output_20, x_49, split_6, view_71, query_states_13, view_69, key_states_13, view_70, value_states_13, attn_output_24, x_57, split_7, view_82, query_states_15, view_80, key_states_15, view_81, value_states_15, attn_output_28, x_65, split_8, view_93, query_states_17, view_91, key_states_17, view_92, value_states_17, attn_output_32, x_73, split_9, view_104, query_states_19, view_102, key_states_19, view_103, value_states_19, attn_output_36], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_18[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_18, triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2, call_slot=_fastlaunch_call_18)
            _fastlaunch_fn(buf5, buf106, buf126, buf146, buf166, buf186, 256, stream=stream0)
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_41, split_5, view_60, query_states_11, view_58, key_states_11, view_59, value_states_11, attn_output_20], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf107 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf105, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf105, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf105, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf106, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf105
            del buf106
            buf108 = buf107[0]
            assert_size_stride(buf108, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf108, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf107
            buf112 = reinterpret_tensor(buf104, (16, 256), (256, 1), 0); del buf104  # reuse
            # Topologically Sorted Source Nodes: [transpose_23, reshape_5, view_61, x_42], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf108, (16, 256), (256, 1), 0), arg68_1, out=buf112)
            del arg68_1
            buf113 = reinterpret_tensor(buf112, (1, 16, 256), (4096, 256, 1), 0); del buf112  # reuse
            buf117 = reinterpret_tensor(buf108, (1, 16, 256), (4096, 256, 1), 0); del buf108  # reuse
            # Topologically Sorted Source Nodes: [x_38, x_39, hidden_states_31, x_42, x_43, hidden_states_33, hidden_states_34], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_19[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_19, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_19)
            _fastlaunch_fn(buf113, arg67_1, buf93, arg61_1, buf100, arg69_1, arg70_1, buf117, 16, 256, stream=stream0)
            del arg61_1
            del arg67_1
            del arg69_1
            del arg70_1
            del buf100
            del buf93
            buf118 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_34, view_63, x_44], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf117, (16, 256), (256, 1), 0), arg72_1, out=buf118)
            del arg72_1
            del buf117
            buf119 = reinterpret_tensor(buf118, (1, 16, 1024), (16384, 1024, 1), 0); del buf118  # reuse
            # Topologically Sorted Source Nodes: [x_44, x_45, mul_20, pow_6, mul_21, add_25, mul_22, tanh_5, add_26, hidden_states_35], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_20[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_20, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_20)
            _fastlaunch_fn(buf119, arg71_1, 16384, stream=stream0)
            del arg71_1
            buf120 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_44, x_45, mul_20, pow_6, mul_21, add_25, mul_22, tanh_5, add_26, hidden_states_35, view_65, x_46], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf119, (16, 1024), (1024, 1), 0), arg74_1, out=buf120)
            del arg74_1
            del buf119
            buf124 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_46, x_47, hidden_states_37, hidden_states_38], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_21[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_21, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_21)
            _fastlaunch_fn(buf113, arg73_1, buf120, arg75_1, arg76_1, buf124, 16, 256, stream=stream0)
            del arg75_1
            del arg76_1
            buf125 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_46, x_47, hidden_states_37, hidden_states_38, view_67, x_48], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg77_1, reinterpret_tensor(buf124, (16, 256), (256, 1), 0), arg78_1, alpha=1, beta=1, out=buf125)
            del arg77_1
            del arg78_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_49, split_6, view_71, query_states_13, view_69, key_states_13, view_70, value_states_13, attn_output_24], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf127 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf125, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf125, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf125, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf126, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf125
            del buf126
            buf128 = buf127[0]
            assert_size_stride(buf128, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf128, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf127
            buf132 = reinterpret_tensor(buf124, (16, 256), (256, 1), 0); del buf124  # reuse
            # Topologically Sorted Source Nodes: [transpose_27, reshape_6, view_72, x_50], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf128, (16, 256), (256, 1), 0), arg80_1, out=buf132)
            del arg80_1
            buf133 = reinterpret_tensor(buf132, (1, 16, 256), (4096, 256, 1), 0); del buf132  # reuse
            buf137 = reinterpret_tensor(buf128, (1, 16, 256), (4096, 256, 1), 0); del buf128  # reuse
            # Topologically Sorted Source Nodes: [x_46, x_47, hidden_states_37, x_50, x_51, hidden_states_39, hidden_states_40], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_22[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_22, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_22)
            _fastlaunch_fn(buf133, arg79_1, buf113, arg73_1, buf120, arg81_1, arg82_1, buf137, 16, 256, stream=stream0)
            del arg73_1
            del arg79_1
            del arg81_1
            del arg82_1
            del buf113
            del buf120
            buf138 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_40, view_74, x_52], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf137, (16, 256), (256, 1), 0), arg84_1, out=buf138)
            del arg84_1
            del buf137
            buf139 = reinterpret_tensor(buf138, (1, 16, 1024), (16384, 1024, 1), 0); del buf138  # reuse
            # Topologically Sorted Source Nodes: [x_52, x_53, mul_24, pow_7, mul_25, add_29, mul_26, tanh_6, add_30, hidden_states_41], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_23[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_23, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_23)
            _fastlaunch_fn(buf139, arg83_1, 16384, stream=stream0)
            del arg83_1
            buf140 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_52, x_53, mul_24, pow_7, mul_25, add_29, mul_26, tanh_6, add_30, hidden_states_41, view_76, x_54], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf139, (16, 1024), (1024, 1), 0), arg86_1, out=buf140)
            del arg86_1
            del buf139
            buf144 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_54, x_55, hidden_states_43, hidden_states_44], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_24[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_24, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_24)
            _fastlaunch_fn(buf133, arg85_1, buf140, arg87_1, arg88_1, buf144, 16, 256, stream=stream0)
            del arg87_1
            del arg88_1
            buf145 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_54, x_55, hidden_states_43, hidden_states_44, view_78, x_56], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg89_1, reinterpret_tensor(buf144, (16, 256), (256, 1), 0), arg90_1, alpha=1, beta=1, out=buf145)
            del arg89_1
            del arg90_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_57, split_7, view_82, query_states_15, view_80, key_states_15, view_81, value_states_15, attn_output_28], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf147 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf145, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf145, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf145, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf146, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf145
            del buf146
            buf148 = buf147[0]
            assert_size_stride(buf148, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf148, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf147
            buf152 = reinterpret_tensor(buf144, (16, 256), (256, 1), 0); del buf144  # reuse
            # Topologically Sorted Source Nodes: [transpose_31, reshape_7, view_83, x_58], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf148, (16, 256), (256, 1), 0), arg92_1, out=buf152)
            del arg92_1
            buf153 = reinterpret_tensor(buf152, (1, 16, 256), (4096, 256, 1), 0); del buf152  # reuse
            buf157 = reinterpret_tensor(buf148, (1, 16, 256), (4096, 256, 1), 0); del buf148  # reuse
            # Topologically Sorted Source Nodes: [x_54, x_55, hidden_states_43, x_58, x_59, hidden_states_45, hidden_states_46], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_25[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_25, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_25)
            _fastlaunch_fn(buf153, arg91_1, buf133, arg85_1, buf140, arg93_1, arg94_1, buf157, 16, 256, stream=stream0)
            del arg85_1
            del arg91_1
            del arg93_1
            del arg94_1
            del buf133
            del buf140
            buf158 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_46, view_85, x_60], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf157, (16, 256), (256, 1), 0), arg96_1, out=buf158)
            del arg96_1
            del buf157
            buf159 = reinterpret_tensor(buf158, (1, 16, 1024), (16384, 1024, 1), 0); del buf158  # reuse
            # Topologically Sorted Source Nodes: [x_60, x_61, mul_28, pow_8, mul_29, add_33, mul_30, tanh_7, add_34, hidden_states_47], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_26[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_26, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_26)
            _fastlaunch_fn(buf159, arg95_1, 16384, stream=stream0)
            del arg95_1
            buf160 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_60, x_61, mul_28, pow_8, mul_29, add_33, mul_30, tanh_7, add_34, hidden_states_47, view_87, x_62], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf159, (16, 1024), (1024, 1), 0), arg98_1, out=buf160)
            del arg98_1
            del buf159
            buf164 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_62, x_63, hidden_states_49, hidden_states_50], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_27[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_27, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_27)
            _fastlaunch_fn(buf153, arg97_1, buf160, arg99_1, arg100_1, buf164, 16, 256, stream=stream0)
            del arg100_1
            del arg99_1
            buf165 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_62, x_63, hidden_states_49, hidden_states_50, view_89, x_64], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg101_1, reinterpret_tensor(buf164, (16, 256), (256, 1), 0), arg102_1, alpha=1, beta=1, out=buf165)
            del arg101_1
            del arg102_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_65, split_8, view_93, query_states_17, view_91, key_states_17, view_92, value_states_17, attn_output_32], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf167 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf165, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf165, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf165, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf166, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf165
            buf168 = buf167[0]
            assert_size_stride(buf168, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf168, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf167
            buf172 = reinterpret_tensor(buf164, (16, 256), (256, 1), 0); del buf164  # reuse
            # Topologically Sorted Source Nodes: [transpose_35, reshape_8, view_94, x_66], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf168, (16, 256), (256, 1), 0), arg104_1, out=buf172)
            del arg104_1
            buf173 = reinterpret_tensor(buf172, (1, 16, 256), (4096, 256, 1), 0); del buf172  # reuse
            buf177 = reinterpret_tensor(buf168, (1, 16, 256), (4096, 256, 1), 0); del buf168  # reuse
            # Topologically Sorted Source Nodes: [x_62, x_63, hidden_states_49, x_66, x_67, hidden_states_51, hidden_states_52], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_28[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_28, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_28)
            _fastlaunch_fn(buf173, arg103_1, buf153, arg97_1, buf160, arg105_1, arg106_1, buf177, 16, 256, stream=stream0)
            del arg103_1
            del arg105_1
            del arg106_1
            del arg97_1
            del buf153
            del buf160
            buf178 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_52, view_96, x_68], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf177, (16, 256), (256, 1), 0), arg108_1, out=buf178)
            del arg108_1
            del buf177
            buf179 = reinterpret_tensor(buf178, (1, 16, 1024), (16384, 1024, 1), 0); del buf178  # reuse
            # Topologically Sorted Source Nodes: [x_68, x_69, mul_32, pow_9, mul_33, add_37, mul_34, tanh_8, add_38, hidden_states_53], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_29[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_29, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_29)
            _fastlaunch_fn(buf179, arg107_1, 16384, stream=stream0)
            del arg107_1
            buf180 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_68, x_69, mul_32, pow_9, mul_33, add_37, mul_34, tanh_8, add_38, hidden_states_53, view_98, x_70], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf179, (16, 1024), (1024, 1), 0), arg110_1, out=buf180)
            del arg110_1
            del buf179
            buf184 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_70, x_71, hidden_states_55, hidden_states_56], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_30[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_30, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_30)
            _fastlaunch_fn(buf173, arg109_1, buf180, arg111_1, arg112_1, buf184, 16, 256, stream=stream0)
            del arg111_1
            del arg112_1
            buf185 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_70, x_71, hidden_states_55, hidden_states_56, view_100, x_72], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg113_1, reinterpret_tensor(buf184, (16, 256), (256, 1), 0), arg114_1, alpha=1, beta=1, out=buf185)
            del arg113_1
            del arg114_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_73, split_9, view_104, query_states_19, view_102, key_states_19, view_103, value_states_19, attn_output_36], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf187 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf185, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf185, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf185, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf186, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf185
            buf188 = buf187[0]
            assert_size_stride(buf188, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf188, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf187
            buf192 = reinterpret_tensor(buf184, (16, 256), (256, 1), 0); del buf184  # reuse
            # Topologically Sorted Source Nodes: [transpose_39, reshape_9, view_105, x_74], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf188, (16, 256), (256, 1), 0), arg116_1, out=buf192)
            del arg116_1
            buf193 = reinterpret_tensor(buf192, (1, 16, 256), (4096, 256, 1), 0); del buf192  # reuse
            buf197 = reinterpret_tensor(buf188, (1, 16, 256), (4096, 256, 1), 0); del buf188  # reuse
            # Topologically Sorted Source Nodes: [x_70, x_71, hidden_states_55, x_74, x_75, hidden_states_57, hidden_states_58], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_31[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_31, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_31)
            _fastlaunch_fn(buf193, arg115_1, buf173, arg109_1, buf180, arg117_1, arg118_1, buf197, 16, 256, stream=stream0)
            del arg109_1
            del arg115_1
            del arg117_1
            del arg118_1
            del buf173
            del buf180
            buf198 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_58, view_107, x_76], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf197, (16, 256), (256, 1), 0), arg120_1, out=buf198)
            del arg120_1
            del buf197
            buf199 = reinterpret_tensor(buf198, (1, 16, 1024), (16384, 1024, 1), 0); del buf198  # reuse
            # Topologically Sorted Source Nodes: [x_76, x_77, mul_36, pow_10, mul_37, add_41, mul_38, tanh_9, add_42, hidden_states_59], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_32[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_32, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_32)
            _fastlaunch_fn(buf199, arg119_1, 16384, stream=stream0)
            del arg119_1
            buf200 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_76, x_77, mul_36, pow_10, mul_37, add_41, mul_38, tanh_9, add_42, hidden_states_59, view_109, x_78], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf199, (16, 1024), (1024, 1), 0), arg122_1, out=buf200)
            del arg122_1
            del buf199
            buf204 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_78, x_79, hidden_states_61, hidden_states_62], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_33[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_33, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_33)
            _fastlaunch_fn(buf193, arg121_1, buf200, arg123_1, arg124_1, buf204, 16, 256, stream=stream0)
            del arg123_1
            del arg124_1
            buf205 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_78, x_79, hidden_states_61, hidden_states_62, view_111, x_80], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg125_1, reinterpret_tensor(buf204, (16, 256), (256, 1), 0), arg126_1, alpha=1, beta=1, out=buf205)
            del arg125_1
            del arg126_1
            buf206 = buf186; del buf186  # reuse
            buf226 = buf166; del buf166  # reuse
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_81, split_10, view_115, query_states_21, view_113, key_states_21, view_114, value_states_21, attn_output_40, x_89, split_11, view_126, query_states_23, view_124, key_states_23, view_125, value_states_23, attn_output_44], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_34[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_34, triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_7, call_slot=_fastlaunch_call_34)
            _fastlaunch_fn(buf5, buf206, buf226, 256, stream=stream0)
            del buf5
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_81, split_10, view_115, query_states_21, view_113, key_states_21, view_114, value_states_21, attn_output_40], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf207 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf205, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf205, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf205, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf206, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf205
            del buf206
            buf208 = buf207[0]
            assert_size_stride(buf208, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf208, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf207
            buf212 = reinterpret_tensor(buf204, (16, 256), (256, 1), 0); del buf204  # reuse
            # Topologically Sorted Source Nodes: [transpose_43, reshape_10, view_116, x_82], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf208, (16, 256), (256, 1), 0), arg128_1, out=buf212)
            del arg128_1
            buf213 = reinterpret_tensor(buf212, (1, 16, 256), (4096, 256, 1), 0); del buf212  # reuse
            buf217 = reinterpret_tensor(buf208, (1, 16, 256), (4096, 256, 1), 0); del buf208  # reuse
            # Topologically Sorted Source Nodes: [x_78, x_79, hidden_states_61, x_82, x_83, hidden_states_63, hidden_states_64], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_35[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_35, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_35)
            _fastlaunch_fn(buf213, arg127_1, buf193, arg121_1, buf200, arg129_1, arg130_1, buf217, 16, 256, stream=stream0)
            del arg121_1
            del arg127_1
            del arg129_1
            del arg130_1
            del buf193
            del buf200
            buf218 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_64, view_118, x_84], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf217, (16, 256), (256, 1), 0), arg132_1, out=buf218)
            del arg132_1
            del buf217
            buf219 = reinterpret_tensor(buf218, (1, 16, 1024), (16384, 1024, 1), 0); del buf218  # reuse
            # Topologically Sorted Source Nodes: [x_84, x_85, mul_40, pow_11, mul_41, add_45, mul_42, tanh_10, add_46, hidden_states_65], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_36[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_36, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_36)
            _fastlaunch_fn(buf219, arg131_1, 16384, stream=stream0)
            del arg131_1
            buf220 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_84, x_85, mul_40, pow_11, mul_41, add_45, mul_42, tanh_10, add_46, hidden_states_65, view_120, x_86], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf219, (16, 1024), (1024, 1), 0), arg134_1, out=buf220)
            del arg134_1
            del buf219
            buf224 = empty_strided_cuda((1, 16, 256), (4096, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_86, x_87, hidden_states_67, hidden_states_68], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_37[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_37, triton_per_fused_add_addmm_native_layer_norm_view_5, call_slot=_fastlaunch_call_37)
            _fastlaunch_fn(buf213, arg133_1, buf220, arg135_1, arg136_1, buf224, 16, 256, stream=stream0)
            del arg135_1
            del arg136_1
            buf225 = empty_strided_cuda((16, 768), (768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_86, x_87, hidden_states_67, hidden_states_68, view_122, x_88], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            extern_kernels.addmm(arg137_1, reinterpret_tensor(buf224, (16, 256), (256, 1), 0), arg138_1, alpha=1, beta=1, out=buf225)
            del arg137_1
            del arg138_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_89, split_11, view_126, query_states_23, view_124, key_states_23, view_125, value_states_23, attn_output_44], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf227 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf225, (1, 4, 16, 64), (12288, 64, 768, 1), 0), reinterpret_tensor(buf225, (1, 4, 16, 64), (12288, 64, 768, 1), 256), reinterpret_tensor(buf225, (1, 4, 16, 64), (12288, 64, 768, 1), 512), reinterpret_tensor(buf226, (1, 4, 16, 16), (256, 0, 16, 1), 0), False, scale=0.125)
            del buf225
            del buf226
            buf228 = buf227[0]
            assert_size_stride(buf228, (1, 4, 16, 64), (4096, 64, 256, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf228, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf227
            buf232 = reinterpret_tensor(buf224, (16, 256), (256, 1), 0); del buf224  # reuse
            # Topologically Sorted Source Nodes: [transpose_47, reshape_11, view_127, x_90], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf228, (16, 256), (256, 1), 0), arg140_1, out=buf232)
            del arg140_1
            buf233 = reinterpret_tensor(buf232, (1, 16, 256), (4096, 256, 1), 0); del buf232  # reuse
            buf237 = reinterpret_tensor(buf228, (1, 16, 256), (4096, 256, 1), 0); del buf228  # reuse
            # Topologically Sorted Source Nodes: [x_86, x_87, hidden_states_67, x_90, x_91, hidden_states_69, hidden_states_70], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_38[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_38, triton_per_fused_add_addmm_native_layer_norm_view_6, call_slot=_fastlaunch_call_38)
            _fastlaunch_fn(buf233, arg139_1, buf213, arg133_1, buf220, arg141_1, arg142_1, buf237, 16, 256, stream=stream0)
            del arg133_1
            del arg139_1
            del arg141_1
            del arg142_1
            del buf213
            del buf220
            buf238 = empty_strided_cuda((16, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_70, view_129, x_92], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf237, (16, 256), (256, 1), 0), arg144_1, out=buf238)
            del arg144_1
            del buf237
            buf239 = reinterpret_tensor(buf238, (1, 16, 1024), (16384, 1024, 1), 0); del buf238  # reuse
            # Topologically Sorted Source Nodes: [x_92, x_93, mul_44, pow_12, mul_45, add_49, mul_46, tanh_11, add_50, hidden_states_71], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_39[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_39, triton_poi_fused_add_addmm_mul_pow_tanh_view_4, call_slot=_fastlaunch_call_39)
            _fastlaunch_fn(buf239, arg143_1, 16384, stream=stream0)
            del arg143_1
            buf240 = empty_strided_cuda((16, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_92, x_93, mul_44, pow_12, mul_45, add_49, mul_46, tanh_11, add_50, hidden_states_71, view_131, x_94], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf239, (16, 1024), (1024, 1), 0), arg146_1, out=buf240)
            del arg146_1
            buf244 = buf233; del buf233  # reuse
            # Topologically Sorted Source Nodes: [x_94, x_95, hidden_states_73, hidden_states_74], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_40[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_40, triton_per_fused_add_addmm_native_layer_norm_view_8, call_slot=_fastlaunch_call_40)
            _fastlaunch_fn(buf244, arg145_1, buf240, arg147_1, arg148_1, 16, 256, stream=stream0)
            del arg145_1
            del arg147_1
            del arg148_1
            del buf240
            buf245 = reinterpret_tensor(buf239, (16, 1024), (1024, 1), 0); del buf239  # reuse
            # Topologically Sorted Source Nodes: [x_94, x_95, hidden_states_73, hidden_states_74, logits], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf244, (16, 256), (256, 1), 0), reinterpret_tensor(arg1_1, (256, 1024), (1, 256), 0), out=buf245)
            del arg1_1
            del buf244
        return (reinterpret_tensor(buf245, (1, 16, 1024), (16384, 1024, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((1, 16), (16, 1), device='cuda:0', dtype=torch.int64)
    arg1_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg3_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg4_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg5_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg6_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg7_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg8_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg9_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg10_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg11_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg12_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg13_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg14_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg15_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg16_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg17_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg18_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg19_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg20_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg21_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg22_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg23_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg24_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg25_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg26_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg27_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg28_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg29_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg30_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg31_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg32_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg33_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg34_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg35_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg36_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg37_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg38_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg39_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg40_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg41_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg42_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg43_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg44_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg45_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg46_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg47_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg48_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg49_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg50_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg51_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg52_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg53_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg54_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg55_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg56_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg57_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg58_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg59_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg60_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg61_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg62_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg63_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg64_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg65_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg66_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg67_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg68_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg69_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg70_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg71_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg72_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg73_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg74_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg75_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg76_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg77_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg78_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg79_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg80_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg81_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg82_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg83_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg84_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg85_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg86_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg87_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg88_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg89_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg90_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg91_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg92_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg93_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg94_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg95_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg96_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg97_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg98_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg99_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg100_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg101_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg102_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg103_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg104_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg105_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg106_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg107_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg108_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg109_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg110_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg111_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg112_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg113_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg114_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg115_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg116_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg117_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg118_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg119_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg120_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg121_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg122_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg123_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg124_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg125_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg126_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg127_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg128_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg129_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg130_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg131_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg132_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg133_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg134_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg135_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg136_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg137_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg138_1 = rand_strided((256, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg139_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg140_1 = rand_strided((256, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg141_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg142_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg143_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg144_1 = rand_strided((256, 1024), (1024, 1), device='cuda:0', dtype=torch.float32)
    arg145_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg146_1 = rand_strided((1024, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg147_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg148_1 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1, arg50_1, arg51_1, arg52_1, arg53_1, arg54_1, arg55_1, arg56_1, arg57_1, arg58_1, arg59_1, arg60_1, arg61_1, arg62_1, arg63_1, arg64_1, arg65_1, arg66_1, arg67_1, arg68_1, arg69_1, arg70_1, arg71_1, arg72_1, arg73_1, arg74_1, arg75_1, arg76_1, arg77_1, arg78_1, arg79_1, arg80_1, arg81_1, arg82_1, arg83_1, arg84_1, arg85_1, arg86_1, arg87_1, arg88_1, arg89_1, arg90_1, arg91_1, arg92_1, arg93_1, arg94_1, arg95_1, arg96_1, arg97_1, arg98_1, arg99_1, arg100_1, arg101_1, arg102_1, arg103_1, arg104_1, arg105_1, arg106_1, arg107_1, arg108_1, arg109_1, arg110_1, arg111_1, arg112_1, arg113_1, arg114_1, arg115_1, arg116_1, arg117_1, arg118_1, arg119_1, arg120_1, arg121_1, arg122_1, arg123_1, arg124_1, arg125_1, arg126_1, arg127_1, arg128_1, arg129_1, arg130_1, arg131_1, arg132_1, arg133_1, arg134_1, arg135_1, arg136_1, arg137_1, arg138_1, arg139_1, arg140_1, arg141_1, arg142_1, arg143_1, arg144_1, arg145_1, arg146_1, arg147_1, arg148_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
