# AOT ID: ['1_inference']
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
_fastlaunch_meta_0 = {'kernel_name': 'triton_red_fused_embedding_mean_mul_pow_rsqrt_0', 'callsite_id': '1:0', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_0 = [None]
_fastlaunch_meta_1 = {'kernel_name': 'triton_poi_fused__to_copy_add_arange_unsqueeze_1', 'callsite_id': '1:1', 'arg_count': 2, 'abi': 'cuda'}
_fastlaunch_call_1 = [None]
_fastlaunch_meta_2 = {'kernel_name': 'triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2', 'callsite_id': '1:2', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_2 = [None]
_fastlaunch_meta_3 = {'kernel_name': 'triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_3', 'callsite_id': '1:3', 'arg_count': 4, 'abi': 'cuda'}
_fastlaunch_call_3 = [None]
_fastlaunch_meta_4 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4', 'callsite_id': '1:4', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_4 = [None]
_fastlaunch_meta_5 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', 'callsite_id': '1:5', 'arg_count': 6, 'abi': 'cuda'}
_fastlaunch_call_5 = [None]
_fastlaunch_meta_6 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', 'callsite_id': '1:6', 'arg_count': 6, 'abi': 'cuda'}
_fastlaunch_call_6 = [None]
_fastlaunch_meta_7 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6', 'callsite_id': '1:7', 'arg_count': 6, 'abi': 'cuda'}
_fastlaunch_call_7 = [None]
_fastlaunch_meta_8 = {'kernel_name': 'triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7', 'callsite_id': '1:8', 'arg_count': 8, 'abi': 'cuda'}
_fastlaunch_call_8 = [None]
_fastlaunch_meta_9 = {'kernel_name': 'triton_poi_fused__unsafe_view_mul_silu_8', 'callsite_id': '1:9', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_9 = [None]
_fastlaunch_meta_10 = {'kernel_name': 'triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9', 'callsite_id': '1:10', 'arg_count': 9, 'abi': 'cuda'}
_fastlaunch_call_10 = [None]
_fastlaunch_meta_11 = {'kernel_name': 'triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2', 'callsite_id': '1:11', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_11 = [None]
_fastlaunch_meta_12 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4', 'callsite_id': '1:12', 'arg_count': 7, 'abi': 'cuda'}
_fastlaunch_call_12 = [None]
_fastlaunch_meta_13 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', 'callsite_id': '1:13', 'arg_count': 6, 'abi': 'cuda'}
_fastlaunch_call_13 = [None]
_fastlaunch_meta_14 = {'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', 'callsite_id': '1:14', 'arg_count': 6, 'abi': 'cuda'}
_fastlaunch_call_14 = [None]
_fastlaunch_meta_15 = {'kernel_name': 'triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10', 'callsite_id': '1:15', 'arg_count': 10, 'abi': 'cuda'}
_fastlaunch_call_15 = [None]
_fastlaunch_meta_16 = {'kernel_name': 'triton_poi_fused__unsafe_view_mul_silu_8', 'callsite_id': '1:16', 'arg_count': 3, 'abi': 'cuda'}
_fastlaunch_call_16 = [None]
_fastlaunch_meta_17 = {'kernel_name': 'triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11', 'callsite_id': '1:17', 'arg_count': 6, 'abi': 'cuda'}
_fastlaunch_call_17 = [None]

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


# kernel path: /tmp/torchinductor_root/f5/cf5xroa46wdr44zl7pcukvsppznvbz67bnxxw375eu74y2jetler.py
# Topologically Sorted Source Nodes: [inputs_embeds, pow_1, variance, rsqrt, hidden_states_1, hidden_states_2], Original ATen: [aten.embedding, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   hidden_states_1 => mul_134
#   hidden_states_2 => mul_138
#   inputs_embeds => embedding
#   pow_1 => pow_1
#   rsqrt => rsqrt
#   variance => mean
# Graph fragment:
#   %arg2_1 : Tensor "i64[s72, s70][s70, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg3_1 : Tensor "f32[1024, 128][128, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %arg7_1 : Tensor "f32[128][1]cuda:0" = PlaceHolder[target=arg7_1]
#   %buf0 : Tensor "f32[s72, s70, 1][s70, 1, s70*s72]cuda:0" = PlaceHolder[target=buf0]
#   %arg6_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg6_1]
#   %embedding : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.embedding.default](args = (%arg3_1, %arg2_1), kwargs = {})
#   %pow_1 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%embedding, 2), kwargs = {})
#   %mean : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [-1], True), kwargs = {})
#   %convert_element_type_default_4 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg6_1, torch.float32), kwargs = {})
#   %add_tensor : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, %convert_element_type_default_4), kwargs = {})
#   %rsqrt : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor,), kwargs = {})
#   %mul_134 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%embedding, %rsqrt), kwargs = {})
#   %mul_138 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg7_1, %mul_134), kwargs = {})
#   return %buf0,%mul_138
triton_red_fused_embedding_mean_mul_pow_rsqrt_0 = async_compile.triton('triton_red_fused_embedding_mean_mul_pow_rsqrt_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': 'fp64', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_embedding_mean_mul_pow_rsqrt_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1536, 'r0_': 197120}}
)
@triton.jit
def triton_red_fused_embedding_mean_mul_pow_rsqrt_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    _tmp9 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp1 = tl.full([1, 1], 1024, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 1024")
        tmp6 = tl.load(in_ptr1 + (r0_1 + 128*tmp4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp7 = tmp6 * tmp6
        tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
        tmp10 = _tmp9 + tmp8
        _tmp9 = tl.where(r0_mask & xmask, tmp10, _tmp9)
    tmp9 = tl.sum(_tmp9, 1)[:, None]
    tmp20 = in_ptr3
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp11 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp12 = tl.full([1, 1], 1024, tl.int32)
        tmp13 = tmp0 + tmp12
        tmp14 = tmp0 < 0
        tmp15 = tl.where(tmp14, tmp13, tmp0)
        tl.device_assert(((0 <= tmp15) & (tmp15 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp15 < 1024")
        tmp17 = tl.load(in_ptr1 + (r0_1 + 128*tmp15), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp18 = tl.full([1, 1], 128.0, tl.float32)
        tmp19 = (tmp9 / tmp18)
        tmp21 = tmp20.to(tl.float32)
        tmp22 = tmp19 + tmp21
        tmp23 = libdevice.rsqrt(tmp22)
        tmp24 = tmp17 * tmp23
        tmp25 = tmp11 * tmp24
        tl.store(out_ptr1 + (r0_1 + 128*x0), tmp25, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/4a/c4anty4uw5j5van2mwxywid7asgb3zqmljztk55kvehigpwzfukc.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, getitem_24, position_ids_expanded], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten._to_copy]
# Source node to ATen node mapping:
#   arange => iota
#   getitem_24 => unsqueeze_12
#   position_ids => add_7
#   position_ids_1 => unsqueeze
#   position_ids_expanded => convert_element_type
# Graph fragment:
#   %iota : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_7 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_7, 0), kwargs = {})
#   %unsqueeze_12 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%unsqueeze_12, torch.float32), kwargs = {})
#   return %expand_4
triton_poi_fused__to_copy_add_arange_unsqueeze_1 = async_compile.triton('triton_poi_fused__to_copy_add_arange_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_arange_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 384}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_arange_unsqueeze_1(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = x0
    tmp1 = tmp0.to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp1, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/6f/c6fmia2kwvnfpi46n2rtzeuuyzix53blu2ks2ftgvlmd2gdhv7py.py
# Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_3, sin, sin_3, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.unsqueeze, aten.sin, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.add]
# Source node to ATen node mapping:
#   cat_2 => cat_2
#   cos => cos
#   cos_3 => unsqueeze_14
#   emb => clone, expand_5, unsqueeze_13, view_3
#   freqs => permute
#   k_embed => add_307
#   key_states => permute_4
#   linear_1 => view_8
#   matmul => unsqueeze_default
#   mul_6 => mul_244
#   mul_7 => mul_260
#   neg_1 => neg_3
#   sin => sin
#   sin_3 => unsqueeze_15
#   view_1 => view_9
#   x1_1 => slice_11
#   x2_1 => slice_12
# Graph fragment:
#   %mm_1 : Tensor "f32[s70*s72, 64][64, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %mm_default : Tensor "f32[16, s70][s70, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %arg5_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg5_1]
#   %unsqueeze_default : Tensor "f32[1, 16, s70][16*s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, s70, 16][16*s70, 1, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, s70, 1, 16][16*s70, 1, 16*s70, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_5 : Tensor "f32[1, s70, 2, 16][16*s70, 1, 0, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [1, %arg1_1, 2, 16]), kwargs = {})
#   %clone : Tensor "f32[1, s70, 2, 16][32*s70, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, %arg1_1, 32]), kwargs = {})
#   %cos : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, %convert_element_type_default_1), kwargs = {})
#   %unsqueeze_14 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor, 1), kwargs = {})
#   %sin : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor_1 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, %convert_element_type_default_2), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor_1, 1), kwargs = {})
#   %view_8 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_9 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_8, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_4 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_9, [0, 2, 1, 3]), kwargs = {})
#   %mul_244 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_4, %unsqueeze_14), kwargs = {})
#   %slice_12 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_3 : Tensor "f32[s72, 2, s70, 16][32*s70, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_12,), kwargs = {})
#   %slice_11 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 0, 16), kwargs = {})
#   %cat_2 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_3, %slice_11], -1), kwargs = {})
#   %mul_260 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_2, %unsqueeze_15), kwargs = {})
#   %add_307 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_244, %mul_260), kwargs = {})
#   return %add_307
triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2 = async_compile.triton('triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 64}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': 'fp64', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 3072, 'x': 245760}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ks0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    xnumel = 64
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x5 = xindex
    y4 = yindex
    x2 = (xindex % 32)
    y0 = (yindex % ks0)
    x3 = xindex // 32
    tmp0 = tl.load(in_ptr0 + (x5 + 64*y4), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (y0 + ks0*((x2 % 16))), xmask & ymask, eviction_policy='evict_last')
    tmp3 = in_ptr2
    tmp2 = tl_math.cos(tmp1)
    tmp4 = tmp3.to(tl.float32)
    tmp5 = tmp2 * tmp4
    tmp6 = tmp0 * tmp5
    tmp7 = x2
    tmp8 = tl.full([1, 1], 0, tl.int64)
    tmp9 = tmp7 >= tmp8
    tmp10 = tl.full([1, 1], 16, tl.int64)
    tmp11 = tmp7 < tmp10
    tmp12 = tl.load(in_ptr0 + (16 + 32*x3 + 64*y4 + (x2)), tmp11 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp13 = -tmp12
    tmp14 = tl.full(tmp13.shape, 0.0, tmp13.dtype)
    tmp15 = tl.where(tmp11, tmp13, tmp14)
    tmp16 = tmp7 >= tmp10
    tmp17 = tl.full([1, 1], 32, tl.int64)
    tmp18 = tmp7 < tmp17
    tmp19 = tl.load(in_ptr0 + (32*x3 + 64*y4 + ((-16) + x2)), tmp16 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp20 = tl.where(tmp11, tmp15, tmp19)
    tmp21 = tl_math.sin(tmp1)
    tmp22 = tmp21 * tmp4
    tmp23 = tmp20 * tmp22
    tmp24 = tmp6 + tmp23
    tl.store(out_ptr0 + (x5 + 64*y4), tmp24, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/2n/c2nuiztv3ukebed7jbx6r7qosvvz2xvt2cd6kv5bctbjgebjifhd.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem_11, first_dummy_value, position_diff, ne_1, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
# Source node to ATen node mapping:
#   arange => iota
#   first_dummy_value => sub_12
#   getitem_11 => slice_2
#   ne_1 => ne
#   packed_sequence_mask => cumsum
#   position_diff => cat, slice_3, slice_4, sub_23
#   position_ids => add_7
#   position_ids_1 => unsqueeze
#   position_ids_2 => expand
# Graph fragment:
#   %iota : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_7 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_7, 0), kwargs = {})
#   %expand : Tensor "i64[s72, s70][0, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze, [%arg0_1, -1]), kwargs = {})
#   %slice_2 : Tensor "i64[s72, 1][0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%expand, 1, 0, 1), kwargs = {})
#   %sub_12 : Tensor "i64[s72, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_2, 1), kwargs = {})
#   %cat : Tensor "i64[s72, s70 + 1][s70 + 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cat.default](args = ([%sub_12, %expand], -1), kwargs = {})
#   %slice_4 : Tensor "i64[s72, s70][s70 + 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 1, %add_4), kwargs = {})
#   %slice_3 : Tensor "i64[s72, s70][s70 + 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 0, %arg1_1), kwargs = {})
#   %sub_23 : Tensor "i64[s72, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_4, %slice_3), kwargs = {})
#   %ne : Tensor "b8[s72, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%sub_23, 1), kwargs = {})
#   %cumsum : Tensor "i64[s72, s70][s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cumsum.default](args = (%ne, -1), kwargs = {})
#   return %cumsum
triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_3 = async_compile.triton('triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_3', '''
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

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 3072}}
)
@triton.jit
def triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_3(out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    tmp32 = tl.full([XBLOCK, 1], -1, tl.int64)
    x0 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = 1 + r0_1
        tmp1 = tl.full([1, 1], 0, tl.int64)
        tmp2 = tmp0 >= tmp1
        tmp3 = tl.full([1, 1], 1, tl.int64)
        tmp4 = tmp0 < tmp3
        tmp5 = tl.broadcast_to((-1) + (1 + r0_1), [XBLOCK, R0_BLOCK])
        tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
        tmp7 = tl.where(tmp4, tmp5, tmp6)
        tmp8 = tmp0 >= tmp3
        tmp9 = 1 + ks0
        tmp10 = tmp0 < tmp9
        tmp11 = tl.broadcast_to(r0_1, [XBLOCK, R0_BLOCK])
        tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
        tmp13 = tl.where(tmp8, tmp11, tmp12)
        tmp14 = tl.where(tmp4, tmp7, tmp13)
        tmp15 = r0_1
        tmp16 = tmp15 >= tmp1
        tmp17 = tmp15 < tmp3
        tmp18 = tl.broadcast_to((-1) + (r0_1), [XBLOCK, R0_BLOCK])
        tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
        tmp20 = tl.where(tmp17, tmp18, tmp19)
        tmp21 = tmp15 >= tmp3
        tmp22 = tmp15 < tmp9
        tmp23 = tl.broadcast_to((-1) + r0_1, [XBLOCK, R0_BLOCK])
        tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
        tmp25 = tl.where(tmp21, tmp23, tmp24)
        tmp26 = tl.where(tmp17, tmp20, tmp25)
        tmp27 = tmp14 - tmp26
        tmp28 = tmp27 != tmp3
        tmp29 = tmp28.to(tl.int64)
        tmp30 = tmp29.to(tl.int64)
        tmp31 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
        tmp33, = tl.associative_scan((tmp31,), 1, _triton_helper_fn_add0)
        tmp34 = triton_helpers.select_one((tmp33), rbase == (RBLOCK - 1), dim=-1, keep_dims=True)
        tmp35 = tmp32 + tmp34
        tmp36 = tmp32 + tmp33
        tmp37 = tl.where(roffset > 0, tmp36, tmp33)
        tmp32 = tl.where(roffset > 0, tmp35, tmp34)
        tl.store(out_ptr0 + (r0_1 + ks0*x0), tmp37, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/s3/cs3wgfgu2evdn4yl7mjowffonbjtx7oedqmgamol6it3g3apdoz4.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand_1
#   attn_output => _scaled_dot_product_efficient_attention, constant_pad_nd, expand_8, full_default_1, full_default_2, slice_17, where
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   cat_1 => cat_1
#   cat_2 => cat_2
#   cos => cos
#   cos_3 => unsqueeze_14
#   emb => clone, expand_5, unsqueeze_13, view_3
#   eq => eq_50
#   freqs => permute
#   getitem_19 => index
#   getitem_20 => index_1
#   getitem_52 => unsqueeze_16
#   getitem_57 => unsqueeze_17
#   hidden_states_3 => expand_6
#   hidden_states_4 => expand_7
#   k_embed => add_307
#   key => clone_2, view_13
#   key_states => permute_4
#   kv_arange => add_51
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le_9
#   linear => view_5
#   linear_1 => view_8
#   linear_2 => view_11
#   matmul => unsqueeze_default
#   mul_4 => mul_219
#   mul_5 => mul_236
#   mul_6 => mul_244
#   mul_7 => mul_260
#   neg => neg_2
#   neg_1 => neg_3
#   q_arange => add_45
#   q_embed => add_271
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states => permute_2
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   sin => sin
#   sin_3 => unsqueeze_15
#   value => clone_3, view_14
#   value_states => permute_6
#   view => view_6
#   view_1 => view_9
#   view_2 => view_12
#   x1 => slice_9
#   x1_1 => slice_11
#   x2 => slice_10
#   x2_1 => slice_12
# Graph fragment:
#   %mm : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm]
#   %mm_default : Tensor "f32[16, s70][s70, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %arg5_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg5_1]
#   %view_5 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %view_6 : Tensor "f32[s72, s70, 4, 32][128*s70, 128, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_2 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 16, s70][16*s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, s70, 16][16*s70, 1, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, s70, 1, 16][16*s70, 1, 16*s70, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_5 : Tensor "f32[1, s70, 2, 16][16*s70, 1, 0, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [1, %arg1_1, 2, 16]), kwargs = {})
#   %clone : Tensor "f32[1, s70, 2, 16][32*s70, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, %arg1_1, 32]), kwargs = {})
#   %cos : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, %convert_element_type_default_1), kwargs = {})
#   %unsqueeze_14 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor, 1), kwargs = {})
#   %mul_219 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_14), kwargs = {})
#   %slice_10 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_2 : Tensor "f32[s72, 4, s70, 16][64*s70, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_10,), kwargs = {})
#   %slice_9 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 16), kwargs = {})
#   %cat_1 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_2, %slice_9], -1), kwargs = {})
#   %sin : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor_1 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, %convert_element_type_default_2), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor_1, 1), kwargs = {})
#   %mul_236 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_1, %unsqueeze_15), kwargs = {})
#   %add_271 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_219, %mul_236), kwargs = {})
#   %view_8 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_9 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_8, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_4 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_9, [0, 2, 1, 3]), kwargs = {})
#   %mul_244 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_4, %unsqueeze_14), kwargs = {})
#   %slice_12 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_3 : Tensor "f32[s72, 2, s70, 16][32*s70, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_12,), kwargs = {})
#   %slice_11 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 0, 16), kwargs = {})
#   %cat_2 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_3, %slice_11], -1), kwargs = {})
#   %mul_260 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_2, %unsqueeze_15), kwargs = {})
#   %add_307 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_244, %mul_260), kwargs = {})
#   %unsqueeze_16 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_307, 2), kwargs = {})
#   %expand_6 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_16, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_2 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %view_11 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_12 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_6 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_17 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_6, 2), kwargs = {})
#   %expand_7 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_17, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_3 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_7,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_51 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_51, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, s70][s70, s70, s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_45 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_45, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, s70, 1][s70, s70, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le_9 : Tensor "b8[1, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le_9), kwargs = {})
#   %iota_1 : Tensor "i64[s72][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg0_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[s72, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[s72, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[s72, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[s72, 1, s70, 1][s70, s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[s72, 1, 1, s70][s70, s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq_50 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq_50), kwargs = {})
#   %expand_1 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [%arg0_1, -1, %arg1_1, %arg1_1]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_2, %full_default_1), kwargs = {})
#   %constant_pad_nd : Tensor "f32[s72, 1, s70, s70 - (Mod(s70, 8)) + 8][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%where, [0, %sub_177], 0.0), kwargs = {})
#   %slice_17 : Tensor "f32[s72, 1, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%constant_pad_nd, -1, 0, %arg1_1), kwargs = {})
#   %expand_8 : Tensor "f32[s72, 4, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), 0, Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%slice_17, [%arg0_1, 4, %arg1_1, %arg1_1]), kwargs = {})
#   %_scaled_dot_product_efficient_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%add_271, %view_13, %view_14, %expand_8, False), kwargs = {scale: 0.1767766952966369})
#   return %buf9
triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 128}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': 'fp64', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 3072, 'x': 491520}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ks0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    xnumel = 128
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x5 = xindex
    y4 = yindex
    x2 = (xindex % 32)
    y0 = (yindex % ks0)
    x3 = xindex // 32
    tmp0 = tl.load(in_ptr0 + (x5 + 128*y4), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (y0 + ks0*((x2 % 16))), xmask & ymask, eviction_policy='evict_last')
    tmp3 = in_ptr2
    tmp2 = tl_math.cos(tmp1)
    tmp4 = tmp3.to(tl.float32)
    tmp5 = tmp2 * tmp4
    tmp6 = tmp0 * tmp5
    tmp7 = x2
    tmp8 = tl.full([1, 1], 0, tl.int64)
    tmp9 = tmp7 >= tmp8
    tmp10 = tl.full([1, 1], 16, tl.int64)
    tmp11 = tmp7 < tmp10
    tmp12 = tl.load(in_ptr0 + (16 + 32*x3 + 128*y4 + (x2)), tmp11 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp13 = -tmp12
    tmp14 = tl.full(tmp13.shape, 0.0, tmp13.dtype)
    tmp15 = tl.where(tmp11, tmp13, tmp14)
    tmp16 = tmp7 >= tmp10
    tmp17 = tl.full([1, 1], 32, tl.int64)
    tmp18 = tmp7 < tmp17
    tmp19 = tl.load(in_ptr0 + (32*x3 + 128*y4 + ((-16) + x2)), tmp16 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp20 = tl.where(tmp11, tmp15, tmp19)
    tmp21 = tl_math.sin(tmp1)
    tmp22 = tmp21 * tmp4
    tmp23 = tmp20 * tmp22
    tmp24 = tmp6 + tmp23
    tl.store(out_ptr0 + (x5 + 128*y4), tmp24, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/v5/cv5tltbzdhdf4gikigvbbelw4iu2xjhvixpgp4anldyp3w6k37pd.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand_1
#   attn_output => _scaled_dot_product_efficient_attention, constant_pad_nd, expand_8, full_default_1, full_default_2, slice_17, where
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   cat_1 => cat_1
#   cat_2 => cat_2
#   cos => cos
#   cos_3 => unsqueeze_14
#   emb => clone, expand_5, unsqueeze_13, view_3
#   eq => eq_50
#   freqs => permute
#   getitem_19 => index
#   getitem_20 => index_1
#   getitem_52 => unsqueeze_16
#   getitem_57 => unsqueeze_17
#   hidden_states_3 => expand_6
#   hidden_states_4 => expand_7
#   k_embed => add_307
#   key => clone_2, view_13
#   key_states => permute_4
#   kv_arange => add_51
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le_9
#   linear => view_5
#   linear_1 => view_8
#   linear_2 => view_11
#   matmul => unsqueeze_default
#   mul_4 => mul_219
#   mul_5 => mul_236
#   mul_6 => mul_244
#   mul_7 => mul_260
#   neg => neg_2
#   neg_1 => neg_3
#   q_arange => add_45
#   q_embed => add_271
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states => permute_2
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   sin => sin
#   sin_3 => unsqueeze_15
#   value => clone_3, view_14
#   value_states => permute_6
#   view => view_6
#   view_1 => view_9
#   view_2 => view_12
#   x1 => slice_9
#   x1_1 => slice_11
#   x2 => slice_10
#   x2_1 => slice_12
# Graph fragment:
#   %add_307 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0" = PlaceHolder[target=add_307]
#   %view_5 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %view_6 : Tensor "f32[s72, s70, 4, 32][128*s70, 128, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_2 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 16, s70][16*s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, s70, 16][16*s70, 1, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, s70, 1, 16][16*s70, 1, 16*s70, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_5 : Tensor "f32[1, s70, 2, 16][16*s70, 1, 0, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [1, %arg1_1, 2, 16]), kwargs = {})
#   %clone : Tensor "f32[1, s70, 2, 16][32*s70, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, %arg1_1, 32]), kwargs = {})
#   %cos : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, %convert_element_type_default_1), kwargs = {})
#   %unsqueeze_14 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor, 1), kwargs = {})
#   %mul_219 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_14), kwargs = {})
#   %slice_10 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_2 : Tensor "f32[s72, 4, s70, 16][64*s70, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_10,), kwargs = {})
#   %slice_9 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 16), kwargs = {})
#   %cat_1 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_2, %slice_9], -1), kwargs = {})
#   %sin : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor_1 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, %convert_element_type_default_2), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor_1, 1), kwargs = {})
#   %mul_236 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_1, %unsqueeze_15), kwargs = {})
#   %add_271 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_219, %mul_236), kwargs = {})
#   %view_8 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_9 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_8, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_4 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_9, [0, 2, 1, 3]), kwargs = {})
#   %mul_244 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_4, %unsqueeze_14), kwargs = {})
#   %slice_12 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_3 : Tensor "f32[s72, 2, s70, 16][32*s70, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_12,), kwargs = {})
#   %slice_11 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 0, 16), kwargs = {})
#   %cat_2 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_3, %slice_11], -1), kwargs = {})
#   %mul_260 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_2, %unsqueeze_15), kwargs = {})
#   %add_307 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_244, %mul_260), kwargs = {})
#   %unsqueeze_16 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_307, 2), kwargs = {})
#   %expand_6 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_16, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_2 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %view_11 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_12 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_6 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_17 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_6, 2), kwargs = {})
#   %expand_7 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_17, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_3 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_7,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_51 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_51, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, s70][s70, s70, s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_45 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_45, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, s70, 1][s70, s70, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le_9 : Tensor "b8[1, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le_9), kwargs = {})
#   %iota_1 : Tensor "i64[s72][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg0_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[s72, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[s72, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[s72, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[s72, 1, s70, 1][s70, s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[s72, 1, 1, s70][s70, s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq_50 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq_50), kwargs = {})
#   %expand_1 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [%arg0_1, -1, %arg1_1, %arg1_1]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_2, %full_default_1), kwargs = {})
#   %constant_pad_nd : Tensor "f32[s72, 1, s70, s70 - (Mod(s70, 8)) + 8][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%where, [0, %sub_177], 0.0), kwargs = {})
#   %slice_17 : Tensor "f32[s72, 1, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%constant_pad_nd, -1, 0, %arg1_1), kwargs = {})
#   %expand_8 : Tensor "f32[s72, 4, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), 0, Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%slice_17, [%arg0_1, 4, %arg1_1, %arg1_1]), kwargs = {})
#   %_scaled_dot_product_efficient_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%add_271, %view_13, %view_14, %expand_8, False), kwargs = {scale: 0.1767766952966369})
#   return %buf10
triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 32768}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 245760}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5(in_ptr0, out_ptr0, ks0, ks1, ks2, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 32)
    x1 = ((xindex // 32) % ks0)
    x2 = ((xindex // ks1) % 4)
    x3 = xindex // ks2
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 32*(x2 // 2) + 64*x1 + 64*ks0*x3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (x4), tmp0, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/px/cpxhsaxhlpehp4dapeqj7qfoivupbwd6brxrozcieshmut4z7y7k.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_3, sin_4, mul_14, q_embed_1, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1, getitem_93, hidden_states_13, key_1, linear_9, view_5, value_states_1, getitem_98, hidden_states_14, value_1, attn_output_4], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand_1
#   attn_output => _scaled_dot_product_efficient_attention, constant_pad_nd, expand_8, full_default_1, full_default_2, slice_17, where
#   attn_output_4 => _scaled_dot_product_efficient_attention_1, constant_pad_nd_1, expand_11, full_default_3, full_default_4, slice_26, where_1
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   cat_1 => cat_1
#   cat_2 => cat_2
#   cat_3 => cat_3
#   cat_4 => cat_4
#   cos => cos
#   cos_3 => unsqueeze_14
#   cos_4 => unsqueeze_18
#   emb => clone, expand_5, unsqueeze_13, view_3
#   eq => eq_50
#   freqs => permute
#   getitem_19 => index
#   getitem_20 => index_1
#   getitem_52 => unsqueeze_16
#   getitem_57 => unsqueeze_17
#   getitem_93 => unsqueeze_20
#   getitem_98 => unsqueeze_21
#   hidden_states_13 => expand_9
#   hidden_states_14 => expand_10
#   hidden_states_3 => expand_6
#   hidden_states_4 => expand_7
#   k_embed => add_307
#   k_embed_1 => add_658
#   key => clone_2, view_13
#   key_1 => clone_4, view_33
#   key_states => permute_4
#   key_states_1 => permute_15
#   kv_arange => add_51
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le_9
#   linear => view_5
#   linear_1 => view_8
#   linear_2 => view_11
#   linear_7 => view_25
#   linear_8 => view_28
#   linear_9 => view_31
#   matmul => unsqueeze_default
#   mul_13 => mul_611
#   mul_14 => mul_628
#   mul_15 => mul_636
#   mul_16 => mul_652
#   mul_4 => mul_219
#   mul_5 => mul_236
#   mul_6 => mul_244
#   mul_7 => mul_260
#   neg => neg_2
#   neg_1 => neg_3
#   neg_2 => neg_5
#   neg_3 => neg_6
#   q_arange => add_45
#   q_embed => add_271
#   q_embed_1 => add_622
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states => permute_2
#   query_states_1 => permute_13
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   sin => sin
#   sin_3 => unsqueeze_15
#   sin_4 => unsqueeze_19
#   value => clone_3, view_14
#   value_1 => clone_5, view_34
#   value_states => permute_6
#   value_states_1 => permute_17
#   view => view_6
#   view_1 => view_9
#   view_2 => view_12
#   view_3 => view_26
#   view_4 => view_29
#   view_5 => view_32
#   x1 => slice_9
#   x1_1 => slice_11
#   x1_2 => slice_18
#   x1_3 => slice_20
#   x2 => slice_10
#   x2_1 => slice_12
#   x2_2 => slice_19
#   x2_3 => slice_21
# Graph fragment:
#   %cumsum : Tensor "i64[s72, s70][s70, 1]cuda:0" = PlaceHolder[target=cumsum]
#   %view_5 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %view_6 : Tensor "f32[s72, s70, 4, 32][128*s70, 128, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_2 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 16, s70][16*s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, s70, 16][16*s70, 1, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, s70, 1, 16][16*s70, 1, 16*s70, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_5 : Tensor "f32[1, s70, 2, 16][16*s70, 1, 0, s70]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [1, %arg1_1, 2, 16]), kwargs = {})
#   %clone : Tensor "f32[1, s70, 2, 16][32*s70, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, %arg1_1, 32]), kwargs = {})
#   %cos : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, %convert_element_type_default_1), kwargs = {})
#   %unsqueeze_14 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor, 1), kwargs = {})
#   %mul_219 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_14), kwargs = {})
#   %slice_10 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_2 : Tensor "f32[s72, 4, s70, 16][64*s70, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_10,), kwargs = {})
#   %slice_9 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 16), kwargs = {})
#   %cat_1 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_2, %slice_9], -1), kwargs = {})
#   %sin : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %convert_element_type_default_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg5_1, torch.float32), kwargs = {})
#   %mul_tensor_1 : Tensor "f32[1, s70, 32][32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, %convert_element_type_default_2), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor_1, 1), kwargs = {})
#   %mul_236 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_1, %unsqueeze_15), kwargs = {})
#   %add_271 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_219, %mul_236), kwargs = {})
#   %view_8 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_9 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_8, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_4 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_9, [0, 2, 1, 3]), kwargs = {})
#   %mul_244 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_4, %unsqueeze_14), kwargs = {})
#   %slice_12 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_3 : Tensor "f32[s72, 2, s70, 16][32*s70, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_12,), kwargs = {})
#   %slice_11 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 0, 16), kwargs = {})
#   %cat_2 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_3, %slice_11], -1), kwargs = {})
#   %mul_260 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_2, %unsqueeze_15), kwargs = {})
#   %add_307 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_244, %mul_260), kwargs = {})
#   %unsqueeze_16 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_307, 2), kwargs = {})
#   %expand_6 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_16, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_2 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %view_11 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_12 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_6 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_17 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_6, 2), kwargs = {})
#   %expand_7 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_17, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_3 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_7,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_51 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_51, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, s70][s70, s70, s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg1_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_45 : Tensor "i64[s70][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, s70][s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_45, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, s70][s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, s70, 1][s70, s70, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le_9 : Tensor "b8[1, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le_9), kwargs = {})
#   %iota_1 : Tensor "i64[s72][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%arg0_1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[s72, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[s72, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[s72, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[s72, 1, s70, 1][s70, s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[s72, 1, 1, s70][s70, s70, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq_50 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq_50), kwargs = {})
#   %expand_1 : Tensor "b8[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [%arg0_1, -1, %arg1_1, %arg1_1]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_2, %full_default_1), kwargs = {})
#   %constant_pad_nd : Tensor "f32[s72, 1, s70, s70 - (Mod(s70, 8)) + 8][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%where, [0, %sub_177], 0.0), kwargs = {})
#   %slice_17 : Tensor "f32[s72, 1, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%constant_pad_nd, -1, 0, %arg1_1), kwargs = {})
#   %expand_8 : Tensor "f32[s72, 4, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), 0, Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%slice_17, [%arg0_1, 4, %arg1_1, %arg1_1]), kwargs = {})
#   %_scaled_dot_product_efficient_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%add_271, %view_13, %view_14, %expand_8, False), kwargs = {scale: 0.1767766952966369})
#   %view_25 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_7, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %view_26 : Tensor "f32[s72, s70, 4, 32][128*s70, 128, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_25, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_13 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_26, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_18 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor, 1), kwargs = {})
#   %mul_611 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_13, %unsqueeze_18), kwargs = {})
#   %slice_19 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_13, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_5 : Tensor "f32[s72, 4, s70, 16][64*s70, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_19,), kwargs = {})
#   %slice_18 : Tensor "f32[s72, 4, s70, 16][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_13, 3, 0, 16), kwargs = {})
#   %cat_3 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_5, %slice_18], -1), kwargs = {})
#   %unsqueeze_19 : Tensor "f32[1, 1, s70, 32][32*s70, 32*s70, 32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_tensor_1, 1), kwargs = {})
#   %mul_628 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_3, %unsqueeze_19), kwargs = {})
#   %add_622 : Tensor "f32[s72, 4, s70, 32][128*s70, 32, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_611, %mul_628), kwargs = {})
#   %view_28 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_8, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_29 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_28, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_15 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_29, [0, 2, 1, 3]), kwargs = {})
#   %mul_636 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_15, %unsqueeze_18), kwargs = {})
#   %slice_21 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_15, 3, 16, 9223372036854775807), kwargs = {})
#   %neg_6 : Tensor "f32[s72, 2, s70, 16][32*s70, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_21,), kwargs = {})
#   %slice_20 : Tensor "f32[s72, 2, s70, 16][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_15, 3, 0, 16), kwargs = {})
#   %cat_4 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_6, %slice_20], -1), kwargs = {})
#   %mul_652 : Tensor "f32[s72, 2, s70, 32][64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_4, %unsqueeze_19), kwargs = {})
#   %add_658 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_636, %mul_652), kwargs = {})
#   %unsqueeze_20 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_658, 2), kwargs = {})
#   %expand_9 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_20, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_4 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_9,), kwargs = {memory_format: torch.contiguous_format})
#   %view_33 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_4, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %view_31 : Tensor "f32[s72, s70, 64][64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_9, [%arg0_1, %arg1_1, 64]), kwargs = {})
#   %view_32 : Tensor "f32[s72, s70, 2, 32][64*s70, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_31, [%arg0_1, %arg1_1, -1, 32]), kwargs = {})
#   %permute_17 : Tensor "f32[s72, 2, s70, 32][64*s70, 32, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_32, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_21 : Tensor "f32[s72, 2, 1, s70, 32][64*s70, 32, 64*s70, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_17, 2), kwargs = {})
#   %expand_10 : Tensor "f32[s72, 2, 2, s70, 32][64*s70, 32, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_21, [%arg0_1, 2, 2, %arg1_1, 32]), kwargs = {})
#   %clone_5 : Tensor "f32[s72, 2, 2, s70, 32][128*s70, 64*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_10,), kwargs = {memory_format: torch.contiguous_format})
#   %view_34 : Tensor "f32[s72, 4, s70, 32][128*s70, 32*s70, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_5, [%arg0_1, 4, %arg1_1, 32]), kwargs = {})
#   %full_default_4 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[s72, 1, s70, s70][s70**2, s70**2, s70, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_4, %full_default_3), kwargs = {})
#   %constant_pad_nd_1 : Tensor "f32[s72, 1, s70, s70 - (Mod(s70, 8)) + 8][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%where_1, [0, %sub_177], 0.0), kwargs = {})
#   %slice_26 : Tensor "f32[s72, 1, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), s70*Max(1, s70 - (Mod(s70, 8)) + 8), Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%constant_pad_nd_1, -1, 0, %arg1_1), kwargs = {})
#   %expand_11 : Tensor "f32[s72, 4, s70, s70][s70*Max(1, s70 - (Mod(s70, 8)) + 8), 0, Max(1, s70 - (Mod(s70, 8)) + 8), 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%slice_26, [%arg0_1, 4, %arg1_1, %arg1_1]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_1 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%add_622, %view_33, %view_34, %expand_11, False), kwargs = {scale: 0.1767766952966369})
#   return %buf12,%buf34
triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 148992}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6(in_ptr0, out_ptr0, out_ptr1, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % ks0)
    x1 = ((xindex // ks0) % ks0)
    x3 = xindex // ks0
    x2 = xindex // ks1
    tmp0 = x0
    tmp1 = ks0
    tmp2 = tmp0 < tmp1
    tmp3 = x0
    tmp4 = x1
    tmp5 = tmp3 <= tmp4
    tmp6 = tl.full([1], True, tl.int1)
    tmp7 = tmp6 & tmp5
    tmp8 = tl.load(in_ptr0 + (x3), tmp2 & xmask, eviction_policy='evict_last', other=0.0)
    tmp9 = tl.load(in_ptr0 + (x0 + ks0*x2), tmp2 & xmask, eviction_policy='evict_last', other=0.0)
    tmp10 = tmp8 == tmp9
    tmp11 = tmp7 & tmp10
    tmp12 = tl.full([1], 0.0, tl.float32)
    tmp13 = tl.full([1], float("-inf"), tl.float32)
    tmp14 = tl.where(tmp11, tmp12, tmp13)
    tmp15 = tl.full(tmp14.shape, 0.0, tmp14.dtype)
    tmp16 = tl.where(tmp2, tmp14, tmp15)
    tl.store(out_ptr0 + (x0 + 8*x3*((7 + ks0) // 8)), tmp16, xmask)
    tl.store(out_ptr1 + (x0 + 8*x3*((7 + ks0) // 8)), tmp16, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/au/caum3w4wy5sg3ysifintb5qwkskalrbebu7dkbk7ed5zqv7hlj4x.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, pow_2, variance_1, rsqrt_1, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   attn_output_3 => view_17
#   hidden_states_5 => add_427
#   hidden_states_7 => mul_442
#   hidden_states_8 => mul_446
#   inputs_embeds => embedding
#   pow_2 => pow_2
#   rsqrt_1 => rsqrt_1
#   variance_1 => mean_1
# Graph fragment:
#   %arg2_1 : Tensor "i64[s72, s70][s70, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg3_1 : Tensor "f32[1024, 128][128, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %mm_3 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %arg13_1 : Tensor "f32[128][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %buf19 : Tensor "f32[s72, s70, 1][s70, 1, s70*s72]cuda:0" = PlaceHolder[target=buf19]
#   %arg12_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg12_1]
#   %embedding : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.embedding.default](args = (%arg3_1, %arg2_1), kwargs = {})
#   %view_17 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_427 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %pow_2 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_427, 2), kwargs = {})
#   %mean_1 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [-1], True), kwargs = {})
#   %convert_element_type_default_6 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg12_1, torch.float32), kwargs = {})
#   %add_tensor_1 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_1, %convert_element_type_default_6), kwargs = {})
#   %rsqrt_1 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor_1,), kwargs = {})
#   %mul_442 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_427, %rsqrt_1), kwargs = {})
#   %mul_446 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg13_1, %mul_442), kwargs = {})
#   return %buf19,%mul_446
triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7 = async_compile.triton('triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': 'fp64', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1536, 'r0_': 295424}}
)
@triton.jit
def triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
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
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp14 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp17 = in_ptr4
    tmp1 = tl.full([1, 1], 1024, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 1024")
    tmp6 = tl.load(in_ptr1 + (r0_1 + 128*tmp4), xmask, other=0.0)
    tmp8 = tmp6 + tmp7
    tmp9 = tmp8 * tmp8
    tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp12 = tl.where(xmask, tmp10, 0)
    tmp13 = tl.sum(tmp12, 1)[:, None].to(tl.float32)
    tmp15 = tl.full([1, 1], 128.0, tl.float32)
    tmp16 = (tmp13 / tmp15)
    tmp18 = tmp17.to(tl.float32)
    tmp19 = tmp16 + tmp18
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp8 * tmp20
    tmp22 = tmp14 * tmp21
    tl.store(out_ptr1 + (r0_1 + 128*x0), tmp22, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/xh/cxh5nxmpi2hyuduhfc52rwzyftkw5samrp5c2t6hlefmaaxvmyyb.py
# Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10], Original ATen: [aten._unsafe_view, aten.silu, aten.mul]
# Source node to ATen node mapping:
#   linear_4 => view_19
#   linear_5 => view_21
#   mul_10 => mul_489
#   silu => add_467, div, exp, neg_4
# Graph fragment:
#   %mm_4 : Tensor "f32[s70*s72, 256][256, 1]cuda:0" = PlaceHolder[target=mm_4]
#   %mm_5 : Tensor "f32[s70*s72, 256][256, 1]cuda:0" = PlaceHolder[target=mm_5]
#   %view_19 : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_4, [%arg0_1, %arg1_1, 256]), kwargs = {})
#   %neg_4 : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%view_19,), kwargs = {})
#   %exp : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_4,), kwargs = {})
#   %add_467 : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%view_19, %add_467), kwargs = {})
#   %view_21 : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_5, [%arg0_1, %arg1_1, 256]), kwargs = {})
#   %mul_489 : Tensor "f32[s72, s70, 256][256*s70, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div, %view_21), kwargs = {})
#   return %mul_489
triton_poi_fused__unsafe_view_mul_silu_8 = async_compile.triton('triton_poi_fused__unsafe_view_mul_silu_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_mul_silu_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 786432}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_mul_silu_8(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)
    tmp6 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = -tmp0
    tmp2 = libdevice.exp(tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = tmp2 + tmp3
    tmp5 = (tmp0 / tmp4)
    tmp7 = tmp5 * tmp6
    tl.store(in_out_ptr0 + (x0), tmp7, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/wf/cwfjpjto7fxcaldxdqc6edcgqgtdwzhfdqre4rjrpgnznpkzopkc.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, pow_3, variance_2, rsqrt_2, hidden_states_11, hidden_states_12], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   attn_output_3 => view_17
#   down_proj => view_23
#   hidden_states_11 => mul_526
#   hidden_states_12 => mul_530
#   hidden_states_5 => add_427
#   hidden_states_9 => add_496
#   inputs_embeds => embedding
#   pow_3 => pow_3
#   rsqrt_2 => rsqrt_2
#   variance_2 => mean_2
# Graph fragment:
#   %arg2_1 : Tensor "i64[s72, s70][s70, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg3_1 : Tensor "f32[1024, 128][128, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %mm_3 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %mm_6 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_6]
#   %arg18_1 : Tensor "f32[128][1]cuda:0" = PlaceHolder[target=arg18_1]
#   %buf25 : Tensor "f32[s72, s70, 1][s70, 1, s70*s72]cuda:0" = PlaceHolder[target=buf25]
#   %arg17_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg17_1]
#   %embedding : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.embedding.default](args = (%arg3_1, %arg2_1), kwargs = {})
#   %view_17 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_427 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %view_23 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_6, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_496 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_427, %view_23), kwargs = {})
#   %pow_3 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_496, 2), kwargs = {})
#   %mean_2 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [-1], True), kwargs = {})
#   %convert_element_type_default_8 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg17_1, torch.float32), kwargs = {})
#   %add_tensor_2 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_2, %convert_element_type_default_8), kwargs = {})
#   %rsqrt_2 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor_2,), kwargs = {})
#   %mul_526 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_496, %rsqrt_2), kwargs = {})
#   %mul_530 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg18_1, %mul_526), kwargs = {})
#   return %buf25,%mul_530
triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9 = async_compile.triton('triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': 'fp64', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1536, 'r0_': 393728}}
)
@triton.jit
def triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
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
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp9 = tl.load(in_ptr3 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp16 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp19 = in_ptr5
    tmp1 = tl.full([1, 1], 1024, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 1024")
    tmp6 = tl.load(in_ptr1 + (r0_1 + 128*tmp4), xmask, other=0.0)
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp11 = tmp10 * tmp10
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp17 = tl.full([1, 1], 128.0, tl.float32)
    tmp18 = (tmp15 / tmp17)
    tmp20 = tmp19.to(tl.float32)
    tmp21 = tmp18 + tmp20
    tmp22 = libdevice.rsqrt(tmp21)
    tmp23 = tmp10 * tmp22
    tmp24 = tmp16 * tmp23
    tl.store(out_ptr1 + (r0_1 + 128*x0), tmp24, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/hq/chqzzsoftx32nryss2dnkf3iudfyj72gcnyioqhfheb6zu2wykp5.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, attn_output_7, hidden_states_15, pow_4, variance_3, rsqrt_3, hidden_states_17, hidden_states_18], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   attn_output_3 => view_17
#   attn_output_7 => view_37
#   down_proj => view_23
#   hidden_states_15 => add_778
#   hidden_states_17 => mul_834
#   hidden_states_18 => mul_838
#   hidden_states_5 => add_427
#   hidden_states_9 => add_496
#   inputs_embeds => embedding
#   pow_4 => pow_4
#   rsqrt_3 => rsqrt_3
#   variance_3 => mean_3
# Graph fragment:
#   %arg2_1 : Tensor "i64[s72, s70][s70, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg3_1 : Tensor "f32[1024, 128][128, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %mm_3 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %mm_6 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_6]
#   %mm_10 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_10]
#   %add_778 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0" = PlaceHolder[target=add_778]
#   %arg24_1 : Tensor "f32[128][1]cuda:0" = PlaceHolder[target=arg24_1]
#   %buf42 : Tensor "f32[s72, s70, 1][s70, 1, s70*s72]cuda:0" = PlaceHolder[target=buf42]
#   %arg23_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg23_1]
#   %embedding : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.embedding.default](args = (%arg3_1, %arg2_1), kwargs = {})
#   %view_17 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_427 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %view_23 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_6, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_496 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_427, %view_23), kwargs = {})
#   %view_37 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_10, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_778 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_496, %view_37), kwargs = {})
#   %pow_4 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_778, 2), kwargs = {})
#   %mean_3 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_4, [-1], True), kwargs = {})
#   %convert_element_type_default_10 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg23_1, torch.float32), kwargs = {})
#   %add_tensor_3 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_3, %convert_element_type_default_10), kwargs = {})
#   %rsqrt_3 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor_3,), kwargs = {})
#   %mul_834 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_778, %rsqrt_3), kwargs = {})
#   %mul_838 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg24_1, %mul_834), kwargs = {})
#   return %add_778,%buf42,%mul_838
triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10 = async_compile.triton('triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': 'fp64', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1536, 'r0_': 688640}}
)
@triton.jit
def triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
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
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_out_ptr0 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp9 = tl.load(in_ptr2 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp11 = tl.load(in_ptr3 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp18 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp21 = in_ptr5
    tmp1 = tl.full([1, 1], 1024, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 1024)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 1024")
    tmp6 = tl.load(in_ptr1 + (r0_1 + 128*tmp4), xmask, other=0.0)
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp12 = tmp10 + tmp11
    tmp13 = tmp12 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(xmask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp19 = tl.full([1, 1], 128.0, tl.float32)
    tmp20 = (tmp17 / tmp19)
    tmp22 = tmp21.to(tl.float32)
    tmp23 = tmp20 + tmp22
    tmp24 = libdevice.rsqrt(tmp23)
    tmp25 = tmp12 * tmp24
    tmp26 = tmp18 * tmp25
    tl.store(in_out_ptr0 + (r0_1 + 128*x0), tmp12, xmask)
    tl.store(out_ptr1 + (r0_1 + 128*x0), tmp26, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/fp/cfpr6lgoe5vvkw7z5y3zban4dxbkm4cictkiesmwqciziebhxcbb.py
# Topologically Sorted Source Nodes: [down_proj_1, hidden_states_19, pow_5, variance_4, rsqrt_4, hidden_states_21, hidden_states_22], Original ATen: [aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   down_proj_1 => view_43
#   hidden_states_19 => add_847
#   hidden_states_21 => mul_918
#   hidden_states_22 => mul_922
#   pow_5 => pow_5
#   rsqrt_4 => rsqrt_4
#   variance_4 => mean_4
# Graph fragment:
#   %add_778 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0" = PlaceHolder[target=add_778]
#   %mm_13 : Tensor "f32[s70*s72, 128][128, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %arg29_1 : Tensor "f32[128][1]cuda:0" = PlaceHolder[target=arg29_1]
#   %buf48 : Tensor "f32[s72, s70, 1][s70, 1, s70*s72]cuda:0" = PlaceHolder[target=buf48]
#   %arg28_1 : Tensor "f64[][]cpu" = PlaceHolder[target=arg28_1]
#   %view_43 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_13, [%arg0_1, %arg1_1, 128]), kwargs = {})
#   %add_847 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_778, %view_43), kwargs = {})
#   %pow_5 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_847, 2), kwargs = {})
#   %mean_4 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_5, [-1], True), kwargs = {})
#   %convert_element_type_default_12 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg28_1, torch.float32), kwargs = {})
#   %add_tensor_4 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_4, %convert_element_type_default_12), kwargs = {})
#   %rsqrt_4 : Tensor "f32[s72, s70, 1][s70, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor_4,), kwargs = {})
#   %mul_918 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_847, %rsqrt_4), kwargs = {})
#   %mul_922 : Tensor "f32[s72, s70, 128][128*s70, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg29_1, %mul_918), kwargs = {})
#   return %buf48,%mul_922
triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11 = async_compile.triton('triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': 'fp64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 393728}}
)
@triton.jit
def triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
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
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 128*x0), xmask, other=0.0)
    tmp8 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp11 = in_ptr2
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2 * tmp2
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 128.0, tl.float32)
    tmp10 = (tmp7 / tmp9)
    tmp12 = tmp11.to(tl.float32)
    tmp13 = tmp10 + tmp12
    tmp14 = libdevice.rsqrt(tmp13)
    tmp15 = tmp2 * tmp14
    tmp16 = tmp8 * tmp15
    tl.store(in_out_ptr0 + (r0_1 + 128*x0), tmp16, xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1 = args
        args.clear()
        s72 = arg0_1
        s70 = arg1_1
        assert_size_stride(arg2_1, (s72, s70), (s70, 1))
        assert_size_stride(arg3_1, (1024, 128), (128, 1))
        assert_size_stride(arg4_1, (16, ), (1, ))
        assert_size_stride(arg5_1, (), ())
        assert_size_stride(arg6_1, (), ())
        assert_size_stride(arg7_1, (128, ), (1, ))
        assert_size_stride(arg8_1, (128, 128), (128, 1))
        assert_size_stride(arg9_1, (64, 128), (128, 1))
        assert_size_stride(arg10_1, (64, 128), (128, 1))
        assert_size_stride(arg11_1, (128, 128), (128, 1))
        assert_size_stride(arg12_1, (), ())
        assert_size_stride(arg13_1, (128, ), (1, ))
        assert_size_stride(arg14_1, (256, 128), (128, 1))
        assert_size_stride(arg15_1, (256, 128), (128, 1))
        assert_size_stride(arg16_1, (128, 256), (256, 1))
        assert_size_stride(arg17_1, (), ())
        assert_size_stride(arg18_1, (128, ), (1, ))
        assert_size_stride(arg19_1, (128, 128), (128, 1))
        assert_size_stride(arg20_1, (64, 128), (128, 1))
        assert_size_stride(arg21_1, (64, 128), (128, 1))
        assert_size_stride(arg22_1, (128, 128), (128, 1))
        assert_size_stride(arg23_1, (), ())
        assert_size_stride(arg24_1, (128, ), (1, ))
        assert_size_stride(arg25_1, (256, 128), (128, 1))
        assert_size_stride(arg26_1, (256, 128), (128, 1))
        assert_size_stride(arg27_1, (128, 256), (256, 1))
        assert_size_stride(arg28_1, (), ())
        assert_size_stride(arg29_1, (128, ), (1, ))
        assert_size_stride(arg30_1, (1024, 128), (128, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf1 = empty_strided_cuda((s72, s70, 128), (128*s70, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, pow_1, variance, rsqrt, hidden_states_1, hidden_states_2], Original ATen: [aten.embedding, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            triton_red_fused_embedding_mean_mul_pow_rsqrt_0_xnumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_0[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_0, triton_red_fused_embedding_mean_mul_pow_rsqrt_0, call_slot=_fastlaunch_call_0)
            _fastlaunch_fn(arg2_1, arg3_1, arg7_1, arg6_1.item(), buf1, triton_red_fused_embedding_mean_mul_pow_rsqrt_0_xnumel, 128, stream=stream0)
            del arg6_1
            del arg7_1
            buf2 = empty_strided_cuda((s70*s72, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf1, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg8_1, (128, 128), (1, 128), 0), out=buf2)
            del arg8_1
            buf3 = empty_strided_cuda((1, 1, s70), (s70, s70, 1), torch.float32)
            # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, getitem_24, position_ids_expanded], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten._to_copy]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_1[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_1, triton_poi_fused__to_copy_add_arange_unsqueeze_1, call_slot=_fastlaunch_call_1)
            _fastlaunch_fn(buf3, s70, stream=stream0)
            buf4 = empty_strided_cuda((16, s70), (s70, 1), torch.float32)
            # Topologically Sorted Source Nodes: [getitem_21, expand_2, matmul, arange, position_ids, position_ids_1, getitem_24, position_ids_expanded], Original ATen: [aten.unsqueeze, aten.expand, aten.bmm, aten.arange, aten.add, aten._to_copy]
            extern_kernels.mm(reinterpret_tensor(arg4_1, (16, 1), (1, 1), 0), reinterpret_tensor(buf3, (1, s70), (0, 1), 0), out=buf4)
            del arg4_1
            del buf3
            buf5 = empty_strided_cuda((s70*s72, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_1], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf1, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg9_1, (128, 64), (1, 128), 0), out=buf5)
            del arg9_1
            buf6 = empty_strided_cuda((s72, 2, s70, 32), (64*s70, 32, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_3, sin, sin_3, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.unsqueeze, aten.sin, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.add]
            triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2_ynumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_2[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_2, triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2, call_slot=_fastlaunch_call_2)
            _fastlaunch_fn(buf5, buf4, arg5_1.item(), buf6, s70, triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2_ynumel, 64, stream=stream0)
            buf7 = buf5; del buf5  # reuse
            # Topologically Sorted Source Nodes: [linear_2], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf1, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg10_1, (128, 64), (1, 128), 0), out=buf7)
            del arg10_1
            buf8 = empty_strided_cuda((s72, s70), (s70, 1), torch.int64)
            # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem_11, first_dummy_value, position_diff, ne_1, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_3[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_3, triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_3, call_slot=_fastlaunch_call_3)
            _fastlaunch_fn(buf8, s70, s72, s70, stream=stream0)
            buf9 = reinterpret_tensor(buf1, (s72, 4, s70, 32), (128*s70, 32, 128, 1), 0); del buf1  # reuse
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4_ynumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_4[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_4, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4, call_slot=_fastlaunch_call_4)
            _fastlaunch_fn(buf2, buf4, arg5_1.item(), buf9, s70, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4_ynumel, 128, stream=stream0)
            ps0 = 32*s70
            ps1 = 128*s70
            buf10 = reinterpret_tensor(buf2, (s72, 4, s70, 32), (128*s70, 32*s70, 32, 1), 0); del buf2  # reuse
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel = 128*s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_5[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_5, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5, call_slot=_fastlaunch_call_5)
            _fastlaunch_fn(buf6, buf10, s70, ps0, ps1, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel, stream=stream0)
            del buf6
            buf11 = empty_strided_cuda((s72, 4, s70, 32), (128*s70, 32*s70, 32, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel = 128*s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_6[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_6, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5, call_slot=_fastlaunch_call_6)
            _fastlaunch_fn(buf7, buf11, s70, ps0, ps1, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel, stream=stream0)
            ps2 = s70*s70
            buf12 = empty_strided_cuda((s72, 1, s70, s70), (8*s70*((7 + s70) // 8), 0, 8*((7 + s70) // 8), 1), torch.float32)
            buf34 = empty_strided_cuda((s72, 1, s70, s70), (8*s70*((7 + s70) // 8), 0, 8*((7 + s70) // 8), 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_3, sin_4, mul_14, q_embed_1, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1, getitem_93, hidden_states_13, key_1, linear_9, view_5, value_states_1, getitem_98, hidden_states_14, value_1, attn_output_4], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6_xnumel = s72*s70*s70
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_7[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_7, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6, call_slot=_fastlaunch_call_7)
            _fastlaunch_fn(buf8, buf12, buf34, s70, ps2, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6_xnumel, stream=stream0)
            del buf8
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_3, mul_5, q_embed, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, getitem_52, hidden_states_3, key, linear_2, view_2, value_states, getitem_57, hidden_states_4, value, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, attn_output], Original ATen: [aten._unsafe_view, aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.unsqueeze, aten.mul, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten.new_ones, aten.arange, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            buf13 = torch.ops.aten._scaled_dot_product_efficient_attention.default(buf9, buf10, buf11, reinterpret_tensor(buf12, (s72, 4, s70, s70), (8*s70*((7 + s70) // 8), 0, 8*((7 + s70) // 8), 1), 0), False, scale=0.1767766952966369)
            del buf10
            del buf11
            del buf12
            buf14 = buf13[0]
            assert_size_stride(buf14, (s72, 4, s70, 32), (128*s70, 32, 128, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf14, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf13
            buf18 = reinterpret_tensor(buf9, (s70*s72, 128), (128, 1), 0); del buf9  # reuse
            # Topologically Sorted Source Nodes: [transpose_4, reshape_2, attn_output_3], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf14, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg11_1, (128, 128), (1, 128), 0), out=buf18)
            del arg11_1
            buf20 = reinterpret_tensor(buf14, (s72, s70, 128), (128*s70, 128, 1), 0); del buf14  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, pow_2, variance_1, rsqrt_1, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7_xnumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_8[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_8, triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7, call_slot=_fastlaunch_call_8)
            _fastlaunch_fn(arg2_1, arg3_1, buf18, arg13_1, arg12_1.item(), buf20, triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_7_xnumel, 128, stream=stream0)
            del arg12_1
            del arg13_1
            buf21 = empty_strided_cuda((s70*s72, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_4], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf20, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg14_1, (128, 256), (1, 128), 0), out=buf21)
            del arg14_1
            buf22 = empty_strided_cuda((s70*s72, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_5], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf20, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg15_1, (128, 256), (1, 128), 0), out=buf22)
            del arg15_1
            buf23 = reinterpret_tensor(buf21, (s72, s70, 256), (256*s70, 256, 1), 0); del buf21  # reuse
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10], Original ATen: [aten._unsafe_view, aten.silu, aten.mul]
            triton_poi_fused__unsafe_view_mul_silu_8_xnumel = 256*s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_9[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_9, triton_poi_fused__unsafe_view_mul_silu_8, call_slot=_fastlaunch_call_9)
            _fastlaunch_fn(buf23, buf22, triton_poi_fused__unsafe_view_mul_silu_8_xnumel, stream=stream0)
            del buf22
            buf24 = reinterpret_tensor(buf20, (s70*s72, 128), (128, 1), 0); del buf20  # reuse
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10, down_proj], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf23, (s70*s72, 256), (256, 1), 0), reinterpret_tensor(arg16_1, (256, 128), (1, 256), 0), out=buf24)
            del arg16_1
            del buf23
            buf26 = empty_strided_cuda((s72, s70, 128), (128*s70, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, pow_3, variance_2, rsqrt_2, hidden_states_11, hidden_states_12], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9_xnumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_10[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_10, triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9, call_slot=_fastlaunch_call_10)
            _fastlaunch_fn(arg2_1, arg3_1, buf18, buf24, arg18_1, arg17_1.item(), buf26, triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_9_xnumel, 128, stream=stream0)
            del arg17_1
            del arg18_1
            buf27 = empty_strided_cuda((s70*s72, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_7], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf26, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg19_1, (128, 128), (1, 128), 0), out=buf27)
            del arg19_1
            buf28 = buf7; del buf7  # reuse
            # Topologically Sorted Source Nodes: [linear_8], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf26, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg20_1, (128, 64), (1, 128), 0), out=buf28)
            del arg20_1
            buf29 = empty_strided_cuda((s72, 2, s70, 32), (64*s70, 32, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, sin, cos_4, sin_4, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.sin, aten.unsqueeze, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.add]
            triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2_ynumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_11[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_11, triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2, call_slot=_fastlaunch_call_11)
            _fastlaunch_fn(buf28, buf4, arg5_1.item(), buf29, s70, triton_poi_fused__unsafe_view_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_2_ynumel, 64, stream=stream0)
            buf30 = buf28; del buf28  # reuse
            # Topologically Sorted Source Nodes: [linear_9], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf26, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg21_1, (128, 64), (1, 128), 0), out=buf30)
            del arg21_1
            buf31 = reinterpret_tensor(buf26, (s72, 4, s70, 32), (128*s70, 32, 128, 1), 0); del buf26  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, sin, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_3, sin_4, mul_14, q_embed_1, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1, getitem_93, hidden_states_13, key_1, linear_9, view_5, value_states_1, getitem_98, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.sin, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.clone, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4_ynumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_12[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_12, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4, call_slot=_fastlaunch_call_12)
            _fastlaunch_fn(buf27, buf4, arg5_1.item(), buf31, s70, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4_ynumel, 128, stream=stream0)
            del arg5_1
            del buf4
            buf32 = reinterpret_tensor(buf27, (s72, 4, s70, 32), (128*s70, 32*s70, 32, 1), 0); del buf27  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, sin, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_3, sin_4, mul_14, q_embed_1, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1, getitem_93, hidden_states_13, key_1, linear_9, view_5, value_states_1, getitem_98, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.sin, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.clone, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel = 128*s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_13[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_13, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5, call_slot=_fastlaunch_call_13)
            _fastlaunch_fn(buf29, buf32, s70, ps0, ps1, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel, stream=stream0)
            del buf29
            buf33 = empty_strided_cuda((s72, 4, s70, 32), (128*s70, 32*s70, 32, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, sin, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_3, sin_4, mul_14, q_embed_1, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1, getitem_93, hidden_states_13, key_1, linear_9, view_5, value_states_1, getitem_98, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.sin, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.clone, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel = 128*s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_14[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_14, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5, call_slot=_fastlaunch_call_14)
            _fastlaunch_fn(buf30, buf33, s70, ps0, ps1, triton_poi_fused__scaled_dot_product_efficient_attention__unsafe_view_add_arange_bitwise_and_bmm_cat_clone_constant_pad_nd_cos_eq_expand_index_le_mul_neg_new_ones_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5_xnumel, stream=stream0)
            del buf30
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, sin, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_19, getitem_20, eq, result_2, attention_mask, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_3, sin_4, mul_14, q_embed_1, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_4, mul_16, k_embed_1, getitem_93, hidden_states_13, key_1, linear_9, view_5, value_states_1, getitem_98, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.sin, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten._unsafe_view, aten.view, aten.mul, aten.slice, aten.neg, aten.clone, aten.scalar_tensor, aten.where, aten.constant_pad_nd, aten._scaled_dot_product_efficient_attention]
            buf35 = torch.ops.aten._scaled_dot_product_efficient_attention.default(buf31, buf32, buf33, reinterpret_tensor(buf34, (s72, 4, s70, s70), (8*s70*((7 + s70) // 8), 0, 8*((7 + s70) // 8), 1), 0), False, scale=0.1767766952966369)
            del buf31
            del buf32
            del buf34
            buf36 = buf35[0]
            assert_size_stride(buf36, (s72, 4, s70, 32), (128*s70, 32, 128, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf36, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf35
            buf40 = reinterpret_tensor(buf33, (s70*s72, 128), (128, 1), 0); del buf33  # reuse
            # Topologically Sorted Source Nodes: [transpose_8, reshape_5, attn_output_7], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf36, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg22_1, (128, 128), (1, 128), 0), out=buf40)
            del arg22_1
            buf41 = reinterpret_tensor(buf18, (s72, s70, 128), (128*s70, 128, 1), 0); del buf18  # reuse
            buf43 = reinterpret_tensor(buf36, (s72, s70, 128), (128*s70, 128, 1), 0); del buf36  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, attn_output_7, hidden_states_15, pow_4, variance_3, rsqrt_3, hidden_states_17, hidden_states_18], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10_xnumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_15[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_15, triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10, call_slot=_fastlaunch_call_15)
            _fastlaunch_fn(buf41, arg2_1, arg3_1, buf24, buf40, arg24_1, arg23_1.item(), buf43, triton_per_fused__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10_xnumel, 128, stream=stream0)
            del arg23_1
            del arg24_1
            del arg2_1
            del arg3_1
            del buf24
            del buf40
            buf44 = empty_strided_cuda((s70*s72, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [pow_4, variance_3, rsqrt_3, hidden_states_17, hidden_states_18, linear_11], Original ATen: [aten.pow, aten.mean, aten.rsqrt, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf43, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg25_1, (128, 256), (1, 128), 0), out=buf44)
            del arg25_1
            buf45 = empty_strided_cuda((s70*s72, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_12], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf43, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg26_1, (128, 256), (1, 128), 0), out=buf45)
            del arg26_1
            buf46 = reinterpret_tensor(buf44, (s72, s70, 256), (256*s70, 256, 1), 0); del buf44  # reuse
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, mul_19], Original ATen: [aten._unsafe_view, aten.silu, aten.mul]
            triton_poi_fused__unsafe_view_mul_silu_8_xnumel = 256*s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_16[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_16, triton_poi_fused__unsafe_view_mul_silu_8, call_slot=_fastlaunch_call_16)
            _fastlaunch_fn(buf46, buf45, triton_poi_fused__unsafe_view_mul_silu_8_xnumel, stream=stream0)
            del buf45
            buf47 = reinterpret_tensor(buf43, (s70*s72, 128), (128, 1), 0); del buf43  # reuse
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, mul_19, down_proj_1], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf46, (s70*s72, 256), (256, 1), 0), reinterpret_tensor(arg27_1, (256, 128), (1, 256), 0), out=buf47)
            del arg27_1
            del buf46
            buf49 = buf41; del buf41  # reuse
            # Topologically Sorted Source Nodes: [down_proj_1, hidden_states_19, pow_5, variance_4, rsqrt_4, hidden_states_21, hidden_states_22], Original ATen: [aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11_xnumel = s70*s72
            stream0 = get_raw_stream(0)
            _fastlaunch_fn = _fastlaunch_call_17[0]
            if _fastlaunch_fn is None:
                _fastlaunch_fn = _fastlaunch_bind(_fastlaunch_meta_17, triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11, call_slot=_fastlaunch_call_17)
            _fastlaunch_fn(buf49, buf47, arg29_1, arg28_1.item(), triton_per_fused__unsafe_view_add_mean_mul_pow_rsqrt_11_xnumel, 128, stream=stream0)
            del arg28_1
            del arg29_1
            del buf47
            buf50 = empty_strided_cuda((s70*s72, 1024), (1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [down_proj_1, hidden_states_19, pow_5, variance_4, rsqrt_4, hidden_states_21, hidden_states_22, logits], Original ATen: [aten._unsafe_view, aten.add, aten.pow, aten.mean, aten.rsqrt, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf49, (s70*s72, 128), (128, 1), 0), reinterpret_tensor(arg30_1, (128, 1024), (1, 128), 0), out=buf50)
            del arg30_1
            del buf49
        return (reinterpret_tensor(buf50, (s72, s70, 1024), (1024*s70, 1024, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = 4
    arg1_1 = 48
    arg2_1 = rand_strided((4, 48), (48, 1), device='cuda:0', dtype=torch.int64)
    arg3_1 = rand_strided((1024, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg4_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg5_1 = rand_strided((), (), device='cpu', dtype=torch.float64)
    arg6_1 = rand_strided((), (), device='cpu', dtype=torch.float64)
    arg7_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg8_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg9_1 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg10_1 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg11_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg12_1 = rand_strided((), (), device='cpu', dtype=torch.float64)
    arg13_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg14_1 = rand_strided((256, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg15_1 = rand_strided((256, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg16_1 = rand_strided((128, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg17_1 = rand_strided((), (), device='cpu', dtype=torch.float64)
    arg18_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg19_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg20_1 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg21_1 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg22_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg23_1 = rand_strided((), (), device='cpu', dtype=torch.float64)
    arg24_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg25_1 = rand_strided((256, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg26_1 = rand_strided((256, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg27_1 = rand_strided((128, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    arg28_1 = rand_strided((), (), device='cpu', dtype=torch.float64)
    arg29_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg30_1 = rand_strided((1024, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
