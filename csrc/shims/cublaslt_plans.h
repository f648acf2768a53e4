// SPDX-License-Identifier: Apache-2.0
// Prepared CUDA GEMMs: the cached cuBLASLt tier of the ATen shim
// (aten_ops.cpp includes this where FASTLAUNCH_LT_TIER is set).
//
// ATen's CUDA GEMM redoes work on every call: its cuBLASLt path creates and
// destroys a matmul descriptor, three layouts and a preference and runs the
// heuristic query, and its cuBLAS path re-derives transposes and leading
// dimensions. A Plan does that once per problem. It holds the descriptor, the
// layouts and the heuristic's algorithm.
//
// A plan is used only after it proved itself in this process: on random inputs
// of the problem's geometry and pointer alignment, its result must equal ATen's
// own kernel's byte for byte. Otherwise the problem keeps a refused plan, and
// its calls keep static dispatch.
//
// Forms it takes:
//   - addmm with a 1-D bias, beta 1 and alpha 1 (the bias epilogue): ATen's
//     own cuBLASLt path, whose descriptors ATen builds on every call (unless
//     DISABLE_ADDMM_CUDA_LT=1 turns that path off: then, on the default
//     backend, it keeps static dispatch as mm does). The few forms ATen's
//     addmm sends to cuBLAS instead (a size of 1, an out with a leading
//     dimension; the rule differs by release) are planned too, under the
//     same check;
//   - mm and bmm where cuBLASLt is ATen's preferred BLAS backend (ATen then
//     builds their cuBLASLt state per call too). On the default backend ATen
//     calls cuBLAS for them, with no per-call state for a plan to save: they
//     keep static dispatch, ATen's own kernel, with no check to pay for;
//   - in fp32 (TF32 on or off), with operands row- or column-major and no copies.
// Not fp16 or bf16: their outputs round away the accumulator's low bits, so
// two kernels that sum in different orders agree on most inputs and a check
// cannot tell them apart (on the H200 an fp16 plan passed its check and then
// differed from ATen on other inputs).
// Every cuBLASLt return code is checked; a failure is a c10::Error naming the
// call and the status.
//
// The cuBLASLt symbols resolve to the library torch loaded (libtorch_cuda
// depends on it), so the shim links nothing more.
#pragma once

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContextLight.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/tunable/Tunable.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGraphsC10Utils.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/util/env.h>
#include <cublasLt.h>
#include <torch/version.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/program_format.h"

namespace fastlaunch::cublaslt {

// Why a CUDA GEMM kept static dispatch instead of a plan (counted per call).
enum Decline {
  kForm,           // not a form the tier takes (dtype, layout, scalars, aliasing, empty)
  kCapture,        // its first call came during a CUDA graph capture (no check possible)
  kDeterministic,  // torch.use_deterministic_algorithms(True): ATen's kernel only
  kTunable,        // TunableOp is on: ATen's tuned choice only
  kNoAlgorithm,    // the heuristic found no algorithm
  kMismatch,       // the plan's result differed from ATen's on the check
  kError,          // a cuBLASLt or ATen call failed while planning
  kFull,           // kMaxPlans problems are planned already
  kFirstCall,      // the call that built and checked its problem's plan ran ATen's kernel
  kReducedPrecision,  // fp16 or bf16: a check cannot tell summation orders apart
  kSmCarveout,     // torch._C._set_sm_carveout_experimental: ATen's SM count target
  kSyncDebug,      // torch.cuda.set_sync_debug_mode on: the check would synchronize
  kLarge,          // operands over kMaxCheckedBytes: the check's copies would cost memory
  kWorkspace,      // no workspace of ATen's on this handle and stream (FindWorkspace)
  kCublas,         // ATen's default backend calls cuBLAS here (mm, bmm; addmm without its Lt path)
  kMemory,         // no device memory free outside the caching allocator for the check
  kDeclineCount
};
constexpr const char* kDeclineNames[] = {
    "form",       "capture",  "deterministic", "tunable",      "no_algorithm",
    "mismatch",   "error",    "full",          "first_call",   "reduced_precision",
    "sm_carveout", "sync_debug", "large",         "workspace",    "cublas",
    "memory"};
static_assert(std::size(kDeclineNames) == kDeclineCount, "a name per reason");
constexpr size_t kMaxPlans = 1024;
// The check's samples take the operands' and two outputs' size on the device,
// plus the largest again and a byte per element of it: problems above this
// keep ATen's kernel.
constexpr int64_t kMaxCheckedBytes = int64_t{64} << 20;

// An operand as cuBLASLt stores it (column-major): rows, cols, leading
// dimension and batch stride as stored, and whether the op transposes it.
struct Matrix {
  int64_t rows = 0, cols = 0, ld = 0, batch_stride = 0;
  bool transposed = false;
};

// `t` holds a row-major (r x c) matrix per batch. Stored row-major, it is a
// column-major (c x r) one. Stored column-major, it is (r x c), transposed by
// the op. False where neither holds without a copy (ATen would copy).
inline bool AsColumnMajor(const at::Tensor& t, int64_t r, int64_t c, Matrix* m) {
  const int64_t d = t.dim();
  const int64_t s_row = t.stride(d - 2), s_col = t.stride(d - 1);
  const int64_t batch_stride = d == 3 ? t.stride(0) : 0;
  if (s_col == 1 && s_row >= std::max<int64_t>(1, c)) {
    *m = Matrix{c, r, s_row, batch_stride, false};
    return true;
  }
  if (s_row == 1 && s_col >= std::max<int64_t>(1, r)) {
    *m = Matrix{r, c, s_col, batch_stride, true};
    return true;
  }
  return false;
}

// The largest power of two up to 256 dividing the address: what cuBLASLt's
// kernels may assume of a pointer (ATen's cuBLASLt path passes the same).
inline int64_t Alignment(const void* ptr) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  int64_t alignment = 1;
  while (alignment < 256 && address % static_cast<uintptr_t>(alignment * 2) == 0) alignment *= 2;
  return alignment;
}

// One problem: everything its plan depends on, and everything ATen's own
// choice of kernel may depend on (so a changed flag is another problem).
struct Problem {
  enum Field {
    kKind, kDevice, kBatch, kM, kN, kK, kTransA, kTransB, kLdA, kLdB, kLdC,
    kStrideA, kStrideB, kStrideC, kBias, kAlignA, kAlignB, kAlignC, kAlignBias, kTf32,
    kBackend, kWorkspace, kFields
  };
  std::array<int64_t, kFields> v{};
  bool operator==(const Problem& o) const { return v == o.v; }
};

struct ProblemHash {
  size_t operator()(const Problem& p) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the fields
    for (int64_t x : p.v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

inline void Check(cublasStatus_t status, const char* what) {
  TORCH_CHECK(status == CUBLAS_STATUS_SUCCESS, "fastlaunch: ", what, " failed: ",
              cublasGetStatusString(status));
}

struct Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulAlgo_t algo{};
  std::optional<Decline> refused;  // why the plan is not used; none: it is
  std::mutex bias;  // a call's bias pointer sits in the shared descriptor until it ran
  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {  // destroying valid objects cannot fail; nothing could report it here
    if (c != nullptr) cublasLtMatrixLayoutDestroy(c);
    if (b != nullptr) cublasLtMatrixLayoutDestroy(b);
    if (a != nullptr) cublasLtMatrixLayoutDestroy(a);
    if (desc != nullptr) cublasLtMatmulDescDestroy(desc);
  }
};

// A GEMM in the tier's terms: its problem and this call's pointers.
// cuBLASLt computes D^T = B^T A^T: its A is the call's mat2, its B the call's mat1.
struct Call {
  Problem problem;
  Matrix a, b;
  const void *a_ptr = nullptr, *b_ptr = nullptr, *bias_ptr = nullptr;
  void* c_ptr = nullptr;
};

// The elements a strided tensor spans, from its first to its last.
inline int64_t Extent(const at::Tensor& t) {
  int64_t extent = 1;
  for (int64_t d = 0; d < t.dim(); ++d) extent += (t.size(d) - 1) * t.stride(d);
  return extent;
}

// Whether ATen's fp32 GEMMs use TF32 now, read as ATen's CUDA BLAS reads it
// (allowTF32CuBLAS raises where the legacy and the new settings disagree).
inline bool Tf32(at::Context& ctx) {
  if (at::NoTF32Guard::should_disable_tf32()) return false;
#if TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 10
  return ctx.float32Precision("cuda", "matmul") == "tf32";
#else
  return ctx.float32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL) ==
         at::Float32Precision::TF32;
#endif
}

// DISABLE_ADDMM_CUDA_LT=1: ATen's addmm leaves its cuBLASLt path for cuBLAS.
// Read once per process and only "1" counts, as ATen reads it.
inline bool AddmmLtDisabled() {
  static const bool disabled = [] {
    const char* value = std::getenv("DISABLE_ADDMM_CUDA_LT");  // NOLINT(concurrency-mt-unsafe)
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return disabled;
}

// The GEMM `kind` (program_format's kMm, kAddmm, kBmm, kBaddbmm) as a problem
// of the tier, or the reason it is not one.
inline std::optional<Decline> Describe(int kind, const at::Tensor& out, const at::Tensor* x,
                                       const at::Tensor& a, const at::Tensor& b,
                                       const at::Scalar& beta, const at::Scalar& alpha,
                                       Call* call) {
  using namespace program_format;  // NOLINT(google-build-using-namespace)
  const at::ScalarType dtype = out.scalar_type();
  const bool batched = kind == kBmm;
  const int64_t dims = batched ? 3 : 2;
  if (kind == kBaddbmm || a.scalar_type() != dtype || b.scalar_type() != dtype ||
      out.dim() != dims || a.dim() != dims || b.dim() != dims) {
    return kForm;
  }
  if (dtype == at::kHalf || dtype == at::kBFloat16) return kReducedPrecision;
  if (dtype != at::kFloat) return kForm;
  const int64_t batch = batched ? out.size(0) : 1;
  const int64_t m = a.size(dims - 2), k = a.size(dims - 1), n = b.size(dims - 1);
  if (b.size(dims - 2) != k || out.size(dims - 2) != m || out.size(dims - 1) != n ||
      (batched && (a.size(0) != batch || b.size(0) != batch)) || m == 0 || n == 0 || k == 0 ||
      batch == 0 || a.device() != out.device() || b.device() != out.device() ||
      out.is_alias_of(a) || out.is_alias_of(b)) {
    return kForm;
  }
  // The output as cuBLASLt's D: column-major (n x m) per batch, not transposed,
  // its batches apart.
  Matrix c;
  if (!AsColumnMajor(out, m, n, &c) || c.transposed ||
      (batch > 1 && c.batch_stride < c.ld * m)) {
    return kForm;
  }
  if (!AsColumnMajor(b, k, n, &call->a) || !AsColumnMajor(a, m, k, &call->b) ||
      (batch > 1 && (call->a.batch_stride <= 0 || call->b.batch_stride <= 0))) {
    return kForm;  // (a broadcast batch, stride 0, stays with ATen's strided-batched call)
  }
  int64_t bias_alignment = 0;
  if (kind == kAddmm) {
    if (!beta.isIntegral(false) || beta.toLong() != 1 || !alpha.isIntegral(false) ||
        alpha.toLong() != 1 || x->dim() != 1 || x->size(0) != n || x->scalar_type() != dtype ||
        x->device() != out.device() || (n > 1 && x->stride(0) != 1) || out.is_alias_of(*x)) {
      return kForm;
    }
    call->bias_ptr = x->const_data_ptr();
    bias_alignment = Alignment(call->bias_ptr);
  }
  auto& ctx = at::globalContext();
  if (ctx.deterministicAlgorithms()) return kDeterministic;
  if (at::cuda::tunable::getTuningContext()->IsTunableOpEnabled()) return kTunable;
  if (ctx._SMCarveout_EXPERIMENTAL().has_value()) return kSmCarveout;
  const at::BlasBackend backend = ctx.blasPreferredBackend();
  if (backend != at::BlasBackend::Cublaslt && (kind != kAddmm || AddmmLtDisabled())) {
    return kCublas;
  }
  call->a_ptr = b.const_data_ptr();
  call->b_ptr = a.const_data_ptr();
  call->c_ptr = out.data_ptr();
  using P = Problem;
  auto& v = call->problem.v;
  v[P::kKind] = kind;
  v[P::kDevice] = out.device().index();
  v[P::kBatch] = batch;
  v[P::kM] = m;
  v[P::kN] = n;
  v[P::kK] = k;
  v[P::kTransA] = call->a.transposed;
  v[P::kTransB] = call->b.transposed;
  v[P::kLdA] = call->a.ld;
  v[P::kLdB] = call->b.ld;
  v[P::kLdC] = c.ld;
  if (batch <= 1) call->a.batch_stride = call->b.batch_stride = c.batch_stride = 0;  // unused
  v[P::kStrideA] = call->a.batch_stride;
  v[P::kStrideB] = call->b.batch_stride;
  v[P::kStrideC] = c.batch_stride;
  v[P::kBias] = kind == kAddmm;
  v[P::kAlignA] = Alignment(call->a_ptr);
  v[P::kAlignB] = Alignment(call->b_ptr);
  v[P::kAlignC] = Alignment(call->c_ptr);
  v[P::kAlignBias] = bias_alignment;
  v[P::kTf32] = Tf32(ctx);
  v[P::kBackend] = static_cast<int64_t>(backend);
  v[P::kWorkspace] = static_cast<int64_t>(at::cuda::getCUDABlasLtWorkspaceSize());
  return std::nullopt;
}

// Whether the check's copies of the problem's operands and two outputs would
// span over kMaxCheckedBytes. The key fixes each operand's sizes and strides
// (Describe's layouts), so it is decided once per problem, when it is planned.
inline bool Large(const Problem& problem) {
  using P = Problem;
  const auto& v = problem.v;
  // elements a column-major operand spans: rows x cols with leading dimension ld, per batch
  auto span = [&](int64_t rows, int64_t cols, int64_t ld, int64_t batch_stride) {
    return 1 + (rows - 1) + (cols - 1) * ld + (v[P::kBatch] - 1) * batch_stride;
  };
  const int64_t m = v[P::kM], n = v[P::kN], k = v[P::kK];
  const bool ta = v[P::kTransA] != 0, tb = v[P::kTransB] != 0;
  const int64_t elements =
      span(ta ? k : n, ta ? n : k, v[P::kLdA], v[P::kStrideA]) +  // mat2 (k x n)
      span(tb ? m : k, tb ? k : m, v[P::kLdB], v[P::kStrideB]) +  // mat1 (m x k)
      2 * span(n, m, v[P::kLdC], v[P::kStrideC]) + (v[P::kBias] != 0 ? n : 0);
  return elements * 4 > kMaxCheckedBytes;  // fp32
}

inline cublasLtMatrixLayout_t Layout(cudaDataType_t type, const Matrix& m, int64_t batch) {
  cublasLtMatrixLayout_t layout = nullptr;
  Check(cublasLtMatrixLayoutCreate(&layout, type, static_cast<uint64_t>(m.rows),
                                   static_cast<uint64_t>(m.cols), m.ld),
        "cublasLtMatrixLayoutCreate");
  if (batch > 1) {
    const int32_t count = static_cast<int32_t>(batch);
    cublasStatus_t status = cublasLtMatrixLayoutSetAttribute(
        layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count));
    if (status == CUBLAS_STATUS_SUCCESS) {
      status = cublasLtMatrixLayoutSetAttribute(
          layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &m.batch_stride,
          sizeof(m.batch_stride));
    }
    if (status != CUBLAS_STATUS_SUCCESS) {
      cublasLtMatrixLayoutDestroy(layout);
      Check(status, "cublasLtMatrixLayoutSetAttribute");
    }
  }
  return layout;
}

inline void SetDesc(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute,
                    const void* value, size_t size) {
  Check(cublasLtMatmulDescSetAttribute(desc, attribute, value, size),
        "cublasLtMatmulDescSetAttribute");
}

// The descriptor, layouts and algorithm of `call`'s problem (refused =
// kNoAlgorithm when the heuristic has none).
inline void Build(const Call& call, Plan* plan) {
  using P = Problem;
  const auto& v = call.problem.v;
  const cudaDataType_t type = CUDA_R_32F;  // Describe takes fp32 only
  const cublasComputeType_t compute =
      v[P::kTf32] != 0 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  Check(cublasLtMatmulDescCreate(&plan->desc, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
  const cublasOperation_t ta = call.a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t tb = call.b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  SetDesc(plan->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
  SetDesc(plan->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
  if (v[P::kBias] != 0) {
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    SetDesc(plan->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
    SetDesc(plan->desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &type, sizeof(type));
  }
  const int64_t batch = v[P::kBatch];
  plan->a = Layout(type, call.a, batch);
  plan->b = Layout(type, call.b, batch);
  plan->c = Layout(type, Matrix{v[P::kN], v[P::kM], v[P::kLdC], v[P::kStrideC], false}, batch);
  cublasLtMatmulPreference_t preference = nullptr;
  Check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
  std::unique_ptr<std::remove_pointer_t<cublasLtMatmulPreference_t>,
                  cublasStatus_t (*)(cublasLtMatmulPreference_t)>
      owned(preference, cublasLtMatmulPreferenceDestroy);
  const uint64_t workspace = static_cast<uint64_t>(v[P::kWorkspace]);
  Check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &workspace, sizeof(workspace)),
        "cublasLtMatmulPreferenceSetAttribute");
  const std::pair<cublasLtMatmulPreferenceAttributes_t, P::Field> alignments[] = {
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, P::kAlignA},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, P::kAlignB},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, P::kAlignC},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, P::kAlignC}};
  for (const auto& [attribute, field] : alignments) {
    const uint32_t bytes = static_cast<uint32_t>(v[field]);
    Check(cublasLtMatmulPreferenceSetAttribute(preference, attribute, &bytes, sizeof(bytes)),
          "cublasLtMatmulPreferenceSetAttribute");
  }
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
      at::cuda::getCurrentCUDABlasLtHandle(), plan->desc, plan->a, plan->b, plan->c, plan->c,
      preference, 1, &result, &found);
  if (status == CUBLAS_STATUS_NOT_SUPPORTED || (status == CUBLAS_STATUS_SUCCESS && found == 0)) {
    plan->refused = kNoAlgorithm;
    return;
  }
  Check(status, "cublasLtMatmulAlgoGetHeuristic");
  plan->algo = result.algo;
}

// Where a plan's GEMM runs: `size` bytes at `data` (NULL when size is 0).
struct Workspace {
  void* data;
  size_t size;
};

// Run's workspace is gone (another thread cleared ATen's workspaces between
// the caller's look and the call): nothing was queued; ATen's kernel runs.
struct NoWorkspace : std::runtime_error {
  NoWorkspace() : std::runtime_error("no workspace of ATen's to share") {}
};

// ATen's workspace maps, by torch release (TORCH_VERSION_MAJOR * 100 + MINOR):
// before 2.10 they have no lock (not read here); 2.10 to 2.12 hold buffers
// made with getChosenWorkspaceSize() (cuBLAS; not exported by 2.12's
// libtorch_cuda) and getCUDABlasLtWorkspaceSize() (cuBLASLt); from 2.13 each
// entry holds its size.
#if !defined(TORCH_VERSION_MAJOR) || !defined(TORCH_VERSION_MINOR)
#error "cublaslt_plans.h needs torch/version.h"
#endif
#define FASTLAUNCH_TORCH_RELEASE (TORCH_VERSION_MAJOR * 100 + TORCH_VERSION_MINOR)

#if FASTLAUNCH_TORCH_RELEASE >= 210
// The buffer ATen holds for `handle` on `stream` in `workspaces`, if it holds
// one of at least `size` bytes (`sized`: an entry's buffer and size).
template <typename Sized>
std::optional<Workspace> Existing(at::cuda::WorkspaceMapWithMutex& workspaces, void* handle,
                                  cudaStream_t stream, size_t size, Sized sized) {
  std::shared_lock<std::shared_mutex> reading(workspaces.mutex);
  const auto found = workspaces.map.find(std::make_tuple(handle, static_cast<void*>(stream)));
  if (found == workspaces.map.end()) return std::nullopt;
  const Workspace held = sized(found->second);
  if (held.data == nullptr || held.size < size) return std::nullopt;
  return Workspace{held.data, size};
}
#endif

// The workspace of `size` bytes (the size the plan's algorithm was chosen
// for: ATen's cuBLASLt size, part of the problem's key) a plan runs on, one
// ATen already holds for this handle and stream: the one its cuBLAS calls
// use (which every stock cuBLAS GEMM sets up, and which ATen's own cuBLASLt
// path shares where TORCH_CUBLASLT_UNIFIED_WORKSPACE is on), else ATen's
// cuBLASLt workspace where ATen made it. Neither (or an error looking):
// nullopt, and the GEMM keeps ATen's kernel (kWorkspace). ATen makes its
// cuBLASLt workspace on first use, and a process whose stock GEMMs never take
// ATen's cuBLASLt path (a training step, its linear layers `mm`s through
// cuBLAS) would not make it: plans running on it there peaked 1 MiB above
// stock. Torch 2.12 cannot size its cuBLAS workspaces (getChosenWorkspaceSize
// is not exported): there it shares that one only where ATen's cuBLASLt path
// does (unified, on unless the variable says 0), at ATen's cuBLASLt size, as
// ATen passes it. Before 2.10 (maps without a lock) a plan runs on ATen's
// cuBLASLt workspace, as it did. Looked up right before each call, as ATen
// does: a workspace ATen replaced or cleared is never used.
inline std::optional<Workspace> FindWorkspace(size_t size) {
  if (size == 0) return Workspace{nullptr, 0};  // what ATen passes for none
  try {
#if FASTLAUNCH_TORCH_RELEASE >= 210
    // on CUDA the cuBLASLt handle is the cuBLAS handle: both maps' key
    void* handle = at::cuda::getCurrentCUDABlasLtHandle();
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream().stream();
#if FASTLAUNCH_TORCH_RELEASE >= 213
    auto sized = [](const std::pair<at::DataPtr, size_t>& entry) {
      return Workspace{entry.first.get(), entry.second};
    };
    auto lt_sized = sized;
#else
    const size_t lt_size = at::cuda::getCUDABlasLtWorkspaceSize();
    auto lt_sized = [lt_size](const at::DataPtr& entry) { return Workspace{entry.get(), lt_size}; };
#if FASTLAUNCH_TORCH_RELEASE == 212
    const bool shared =
        c10::utils::check_env("TORCH_CUBLASLT_UNIFIED_WORKSPACE").value_or(true);
    auto sized = lt_sized;  // ATen's unified path: the cuBLAS buffer at its cuBLASLt size
#else
    const bool shared = true;
    const size_t chosen = at::cuda::getChosenWorkspaceSize();
    auto sized = [chosen](const at::DataPtr& entry) { return Workspace{entry.get(), chosen}; };
#endif
    if (shared)
#endif
    {
      if (auto found = Existing(at::cuda::cublas_handle_stream_to_workspace(), handle, stream,
                                size, sized)) {
        return found;
      }
    }
    return Existing(at::cuda::cublaslt_handle_stream_to_workspace(), handle, stream, size,
                    lt_sized);
#else
    return Workspace{at::cuda::getCUDABlasLtWorkspace(), size};
#endif
  } catch (const c10::Error&) {
    return std::nullopt;  // ATen's kernel meets the same error and raises it
  }
}

// The plan's GEMM on the current stream with ATen's cuBLASLt handle, as
// ATen's own cuBLASLt path runs, on FindWorkspace()'s workspace (NoWorkspace
// without one: nothing queued).
inline void Run(Plan& plan, const Call& call) {
  const auto workspace = FindWorkspace(static_cast<size_t>(call.problem.v[Problem::kWorkspace]));
  if (!workspace) throw NoWorkspace();
  const float one = 1.0f, zero = 0.0f;
  std::unique_lock<std::mutex> bias(plan.bias, std::defer_lock);
  if (call.bias_ptr != nullptr) {
    bias.lock();
    SetDesc(plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &call.bias_ptr, sizeof(call.bias_ptr));
  }
  Check(cublasLtMatmul(at::cuda::getCurrentCUDABlasLtHandle(), plan.desc, &one, call.a_ptr,
                       plan.a, call.b_ptr, plan.b, &zero, call.c_ptr, plan.c, call.c_ptr, plan.c,
                       &plan.algo, workspace->data, workspace->size,
                       at::cuda::getCurrentCUDAStream()),
        "cublasLtMatmul");
}

// What a check's inputs are made of: normal samples; samples scaled by powers
// of two from 2^-12 to 2^12 (sums cancel and absorb, so any change of
// summation order shows in the bits); and samples an eighth of which are
// subnormal and an eighth signed zeros (a kernel that flushes them shows).
enum class Inputs { kNormal, kWide, kEdges };

// Device memory a check takes from CUDA itself, not from the caching
// allocator: one block, stream-ordered on the check's stream from a pool of its
// own (allocated there, and freed there after the check's last kernel, with
// no device-wide synchronization; the pool keeps nothing once it is freed).
// The allocator's statistics, its peak and its cached blocks stay as stock
// leaves them, and a device without the memory free declines the plan
// (kMemory) instead of running the allocator's out-of-memory path (which
// empties its cache, calls the user's observers and raises). Null where CUDA
// had no memory free, or where the device has no memory pools.
class CheckMemory {
 public:
  CheckMemory(size_t bytes, c10::DeviceIndex device, cudaStream_t stream) : stream_(stream) {
    int pools = 0;
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
    if (pools == 0) return;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    C10_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
    const cudaError_t status =
        C10_CUDA_ERROR_HANDLED(cudaMallocFromPoolAsync(&data_, bytes, pool_, stream_));
    if (status == cudaErrorMemoryAllocation) {
      C10_CUDA_CLEAR_ERROR();  // not sticky: no later check of torch's may read it
      data_ = nullptr;
      return;
    }
    C10_CUDA_CHECK(status);
  }
  // The pool goes once its block's free has run on the stream.
  ~CheckMemory() {
    if (data_ != nullptr) C10_CUDA_CHECK_WARN(cudaFreeAsync(data_, stream_));
    if (pool_ != nullptr) C10_CUDA_CHECK_WARN(cudaMemPoolDestroy(pool_));
  }
  CheckMemory(const CheckMemory&) = delete;
  CheckMemory& operator=(const CheckMemory&) = delete;
  void* data() const { return data_; }

 private:
  cudaStream_t stream_;
  cudaMemPool_t pool_ = nullptr;
  void* data_ = nullptr;
};

// Bytes a piece of `elements` of `itemsize` takes in a check's block: rounded
// up to 512, so that every piece starts 512-byte aligned.
inline size_t PieceBytes(int64_t elements, size_t itemsize) {
  return (static_cast<size_t>(elements) * itemsize + 511) / 512 * 512;
}

// A check's block, handed out in pieces as 1-D tensors, in order.
class Block {
 public:
  Block(const CheckMemory& memory, size_t bytes, at::Device device)
      : next_(static_cast<char*>(memory.data())), end_(next_ + bytes), device_(device) {}
  at::Tensor Take(int64_t elements, const at::TensorOptions& options) {
    const size_t bytes = PieceBytes(elements, options.dtype().itemsize());
    TORCH_INTERNAL_ASSERT(next_ + bytes <= end_, "a check's piece past its block");
    void* data = next_;
    next_ += bytes;
    return at::for_blob(data, {elements}).options(options).target_device(device_).make_tensor();
  }

 private:
  char* next_;
  char* end_;
  at::Device device_;
};

// The offset, in elements, that gives a piece's view a data pointer of
// `alignment` (as Alignment reads it): the piece's own 512-byte alignment,
// moved by `alignment` bytes where that is below 256.
inline int64_t AlignedOffset(const at::Tensor& like, int64_t alignment) {
  return alignment >= 256 ? 0 : alignment / like.element_size();
}

// The elements of a sample of `like` at `alignment`: its span and the offset.
inline int64_t SampleElements(const at::Tensor& like, int64_t alignment) {
  return Extent(like) + AlignedOffset(like, alignment);
}

// A tensor of `like`'s sizes and strides whose data pointer has `alignment`,
// over a piece of the check's block; refilled in place for each kind of Inputs.
struct Sample {
  Sample(const at::Tensor& like, int64_t alignment, Block& block)
      : values(block.Take(SampleElements(like, alignment), like.options())),
        view(values.as_strided(like.sizes(), like.strides(), AlignedOffset(like, alignment))) {}
  at::Tensor values;
  at::Tensor view;
};

// Fills `sample` from `generator` as `inputs` says, on its device, in place:
// `scratch` (at least as many elements, of its type) and `flags` (as many
// bools) are the only other memory it writes. The draws are those of
// at::randn and at::randint over the whole piece. The edge inputs keep their
// subnormals as long as the device's kernels do (tests/hw checks it).
inline void Fill(Sample& sample, Inputs inputs, at::Generator& generator,
                 const at::Tensor& scratch, const at::Tensor& flags) {
  at::Tensor& values = sample.values;
  const int64_t n = values.numel();
  values.normal_(0, 1, generator);
  if (inputs == Inputs::kNormal) return;
  at::Tensor factor = scratch.narrow(0, 0, n);
  if (inputs == Inputs::kWide) {
    factor.random_(-12, 13, generator);
    values.mul_(factor.exp2_());
    return;
  }
  // 0 to 7 each; then the factor per draw: 0 makes a subnormal, 1 a signed zero
  factor.random_(0, 8, generator);
  factor.sub_(1).clamp_max_(1);  // -1, 0 or 1
  at::Tensor subnormal = flags.narrow(0, 0, n);
  at::eq_out(subnormal, factor, -1);
  factor.masked_fill_(subnormal, std::ldexp(1.0, -130));
  values.mul_(factor);
}

// `t`'s bits as integers (fp32): NaN and -0.0 compare exactly.
inline at::Tensor Bits(const at::Tensor& t) { return t.view(at::kInt); }

// Whether `x` and `y` hold the same bits, compared in `flags` (at least their
// element count of bools) by halving in place: no other device memory.
inline bool SameBits(const at::Tensor& x, const at::Tensor& y, const at::Tensor& flags) {
  int64_t n = x.numel();
  at::Tensor equal = flags.narrow(0, 0, n);
  at::Tensor shaped = equal.view(x.sizes());
  at::eq_out(shaped, Bits(x), Bits(y));
  while (n > 1) {
    const int64_t half = n / 2;  // the middle element of an odd count stays
    at::Tensor head = equal.narrow(0, 0, half);
    at::logical_and_out(head, head, equal.narrow(0, n - half, half));
    n -= half;
  }
  return equal[0].item<bool>();
}

// ATen's own kernel for the problem: (out, bias or NULL, mat1, mat2).
using Reference =
    std::function<void(at::Tensor&, const at::Tensor*, const at::Tensor&, const at::Tensor&)>;

// The plan of `call`'s problem, checked against `reference` on the three kinds
// of Inputs of the call's geometry and alignment (a private generator on the
// call's device: the user's random state is untouched). Touches none of the
// call's own tensors, and none of the caching allocator's memory: the samples
// share one CheckMemory block, made once for the three sets (kMemory where
// the device has none free). It synchronizes the call's stream (each
// comparison): the caller runs it outside any capture on this thread, and
// relaxes the capture mode so that another thread's capture is neither
// refused nor invalidated by it.
inline std::unique_ptr<Plan> MakePlan(const Call& call, const at::Tensor& out,
                                      const at::Tensor* x, const at::Tensor& a,
                                      const at::Tensor& b, const Reference& reference) {
  c10::cuda::CUDAStreamCaptureModeGuard relaxed(cudaStreamCaptureModeRelaxed);
  auto plan = std::make_unique<Plan>();
  Build(call, plan.get());
  if (plan->refused) return plan;
  using P = Problem;
  const auto& v = call.problem.v;
  const bool bias = x != nullptr && v[P::kBias] != 0;
  // the block: the samples (a, b, the bias, two outputs), then a scratch piece
  // and a byte per element of the largest
  const size_t itemsize = out.element_size();
  const int64_t in_a = SampleElements(a, v[P::kAlignB]), in_b = SampleElements(b, v[P::kAlignA]);
  const int64_t in_x = bias ? SampleElements(*x, v[P::kAlignBias]) : 0;
  const int64_t outputs = SampleElements(out, v[P::kAlignC]);
  const int64_t most = std::max({in_a, in_b, in_x, outputs});
  const size_t bytes = PieceBytes(in_a, itemsize) + PieceBytes(in_b, itemsize) +
                       PieceBytes(in_x, itemsize) + 2 * PieceBytes(outputs, itemsize) +
                       PieceBytes(most, itemsize) + PieceBytes(most, 1);
  const CheckMemory memory(bytes, out.device().index(), at::cuda::getCurrentCUDAStream());
  if (memory.data() == nullptr) {
    plan->refused = kMemory;
    return plan;
  }
  Block block(memory, bytes, out.device());
  Sample sa(a, v[P::kAlignB], block), sb(b, v[P::kAlignA], block);
  std::optional<Sample> sx;
  if (bias) sx.emplace(*x, v[P::kAlignBias], block);
  Sample expected(out, v[P::kAlignC], block), actual(out, v[P::kAlignC], block);
  const at::Tensor scratch = block.Take(most, out.options());
  const at::Tensor flags = block.Take(most, out.options().dtype(at::kBool));
  at::Generator generator = at::cuda::detail::createCUDAGenerator(out.device().index());
  generator.set_current_seed(0x5eed);
  for (Inputs inputs : {Inputs::kNormal, Inputs::kWide, Inputs::kEdges}) {
    Fill(sa, inputs, generator, scratch, flags);
    Fill(sb, inputs, generator, scratch, flags);
    if (sx) Fill(*sx, inputs, generator, scratch, flags);
    Fill(expected, Inputs::kNormal, generator, scratch, flags);
    Fill(actual, Inputs::kNormal, generator, scratch, flags);
    reference(expected.view, sx ? &sx->view : nullptr, sa.view, sb.view);
    Call check = call;
    check.a_ptr = sb.view.const_data_ptr();
    check.b_ptr = sa.view.const_data_ptr();
    check.bias_ptr = sx ? sx->view.const_data_ptr() : nullptr;
    check.c_ptr = actual.view.data_ptr();
    Run(*plan, check);
    if (!SameBits(expected.view, actual.view, flags)) {
      plan->refused = kMismatch;
      break;
    }
  }
  return plan;  // the tensors over the block go before it, freed on the stream
}

// The problem in words (for a warning): sizes, leading dimensions, transposes, alignments.
inline std::string Text(const Problem& problem) {
  using P = Problem;
  const auto& v = problem.v;
  std::ostringstream text;
  text << "batch " << v[P::kBatch] << ", m " << v[P::kM] << ", n " << v[P::kN] << ", k "
       << v[P::kK] << ", leading dimensions " << v[P::kLdA] << "/" << v[P::kLdB] << "/"
       << v[P::kLdC] << ", transposed " << v[P::kTransA] << "/" << v[P::kTransB]
       << ", alignments " << v[P::kAlignA] << "/" << v[P::kAlignB] << "/" << v[P::kAlignC]
       << (v[P::kBias] != 0 ? ", bias" : "");
  return text.str();
}

// The plans of this process, by problem, at most kMaxPlans.
using Plans = std::unordered_map<Problem, std::unique_ptr<Plan>, ProblemHash>;

}  // namespace fastlaunch::cublaslt
