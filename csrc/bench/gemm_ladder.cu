// SPDX-License-Identifier: Apache-2.0
// The GEMM ladder (benchmarks/bench_gemm_ladder.py): the host time of one fp32
// `out = a @ b` taken at each layer between torch's binding and the driver,
// each rung a C++ loop timed around itself (ns for `iters` calls), cycling
// through the given problems so that one problem or the model's shapes in turn
// can be measured. `between` adds one raw cuLaunchKernel of an empty kernel
// after each GEMM, as a wrapper's launches sit between its GEMMs.
//
// Rungs, top down:
//   aten        at::mm_out             the dispatcher (Autograd, ADInplaceOrView, CUDA)
//   aten_cuda   at::cuda::mm_out       static dispatch, as AOTI's C shim calls it
//   cublas      cublasSgemm            ATen's handle looked up per call (what ATen's
//                                      BLAS layer does; at::cuda::blas::gemm is not
//                                      exported), or fetched once
//   lt          cublasLtMatmul         descriptor, layouts and algorithm made once
//   launch      cuLaunchKernel         an empty kernel: the floor of any submission
// and for `addmm` with a bias: at::addmm_out, at::cuda::addmm_out, and a cached
// cublasLtMatmul with the bias epilogue (what ATen's gemm_and_bias rebuilds per call).
#include <torch/extension.h>

#include <ATen/cuda/CUDABlas.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/ops/addmm_cuda_dispatch.h>
#include <ATen/ops/mm_cuda_dispatch.h>
#include <c10/cuda/CUDAStream.h>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

__global__ void EmptyKernel(float*) {}

void Check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(rc));
}
void Check(CUresult rc, const char* what) {
  if (rc != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(rc, &name);
    throw std::runtime_error(std::string(what) + ": " + (name ? name : "?"));
  }
}
void Check(cublasStatus_t rc, const char* what) {
  if (rc != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cublas status " + std::to_string(rc));
  }
}

// One problem out(M,N) = a(M,K) @ b(K,N) in cuBLAS's column-major terms, as
// ATen's mm derives them for a row-major out: out^T = b^T a^T.
struct Problem {
  at::Tensor a, b, out, bias;
  char transa, transb;
  int64_t m, n, k, lda, ldb, ldc;
};

Problem Derive(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out,
               const at::Tensor& bias) {
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && out.dim() == 2, "2-D problems only");
  TORCH_CHECK(out.stride(1) == 1 && a.stride(1) == 1, "row-major a and out only");
  Problem p{a, b, out, bias, 'n', 'n', out.size(1), out.size(0), a.size(1), 0, a.stride(0),
            out.stride(0)};
  if (b.stride(1) == 1) {  // b row-major (K,N): column-major (N,K) as it is
    p.transa = 'n';
    p.lda = b.stride(0);
  } else {  // b = w.t() with w row-major (N,K): column-major (K,N), transposed
    TORCH_CHECK(b.stride(0) == 1, "b must be row- or column-major");
    p.transa = 't';
    p.lda = b.stride(1);
  }
  return p;
}

std::vector<Problem> Problems(const std::vector<at::Tensor>& as, const std::vector<at::Tensor>& bs,
                              const std::vector<at::Tensor>& outs,
                              const std::vector<at::Tensor>& biases) {
  TORCH_CHECK(as.size() == bs.size() && bs.size() == outs.size() && !as.empty(),
              "one a, b and out per problem");
  std::vector<Problem> ps;
  for (size_t i = 0; i < as.size(); ++i) {
    ps.push_back(Derive(as[i], bs[i], outs[i], biases.empty() ? at::Tensor() : biases[i]));
  }
  return ps;
}

struct EmptyLaunch {
  CUfunction fn = nullptr;
  float* arg = nullptr;
  void* params[1] = {&arg};
  EmptyLaunch() {
    Check(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t*>(&fn),
                              reinterpret_cast<const void*>(EmptyKernel)),
          "cudaGetFuncBySymbol");
  }
  void operator()(CUstream stream) {
    Check(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, nullptr), "cuLaunchKernel");
  }
};

template <typename Body>
int64_t Loop(size_t count, int64_t iters, bool between, Body body) {
  EmptyLaunch launch;
  CUstream stream = at::cuda::getCurrentCUDAStream().stream();
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iters; ++i) {
    body(static_cast<size_t>(i) % count);
    if (between) launch(stream);
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
}

using Tensors = std::vector<at::Tensor>;

int64_t RunAten(Tensors as, Tensors bs, Tensors outs, int64_t iters, bool between) {
  auto ps = Problems(as, bs, outs, {});
  return Loop(ps.size(), iters, between, [&](size_t i) { at::mm_out(ps[i].out, ps[i].a, ps[i].b); });
}

int64_t RunAtenCuda(Tensors as, Tensors bs, Tensors outs, int64_t iters, bool between) {
  auto ps = Problems(as, bs, outs, {});
  return Loop(ps.size(), iters, between,
              [&](size_t i) { at::cuda::mm_out(ps[i].out, ps[i].a, ps[i].b); });
}

cublasOperation_t Op(char t) { return t == 't' ? CUBLAS_OP_T : CUBLAS_OP_N; }

// per_call: the handle looked up and its math mode set on every call, as ATen's
// BLAS layer (at::cuda::blas::gemm, not exported) does before its cublasSgemm.
int64_t RunCublas(Tensors as, Tensors bs, Tensors outs, int64_t iters, bool between,
                  bool per_call) {
  auto ps = Problems(as, bs, outs, {});
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();  // stream and workspace set
  const float alpha = 1.0f, beta = 0.0f;
  return Loop(ps.size(), iters, between, [&](size_t i) {
    const Problem& p = ps[i];
    if (per_call) {
      handle = at::cuda::getCurrentCUDABlasHandle();
      Check(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    }
    Check(cublasSgemm(handle, Op(p.transa), Op(p.transb), static_cast<int>(p.m),
                      static_cast<int>(p.n), static_cast<int>(p.k), &alpha,
                      p.b.data_ptr<float>(), static_cast<int>(p.lda), p.a.data_ptr<float>(),
                      static_cast<int>(p.ldb), &beta, p.out.data_ptr<float>(),
                      static_cast<int>(p.ldc)),
          "cublasSgemm");
  });
}

// One problem's cuBLASLt state, made once: what ATen's cuBLASLt path makes per call.
struct LtPlan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
  cublasLtMatmulAlgo_t algo{};
  ~LtPlan() {
    if (lc) cublasLtMatrixLayoutDestroy(lc);
    if (lb) cublasLtMatrixLayoutDestroy(lb);
    if (la) cublasLtMatrixLayoutDestroy(la);
    if (desc) cublasLtMatmulDescDestroy(desc);
  }
};

constexpr size_t kLtWorkspace = 32u << 20;

std::unique_ptr<LtPlan> MakeLtPlan(cublasLtHandle_t lt, const Problem& p) {
  auto plan = std::make_unique<LtPlan>();
  Check(cublasLtMatmulDescCreate(&plan->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "desc");
  cublasOperation_t ta = Op(p.transa), tb = Op(p.transb);
  Check(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)),
        "transa");
  Check(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)),
        "transb");
  if (p.bias.defined()) {
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    const float* bias = p.bias.data_ptr<float>();
    Check(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                         sizeof(epilogue)),
          "epilogue");
    Check(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                         sizeof(bias)),
          "bias");
  }
  // Stored shapes: A is (m,k) or its transpose, B (k,n) or its transpose.
  uint64_t a_rows = p.transa == 't' ? p.k : p.m, a_cols = p.transa == 't' ? p.m : p.k;
  uint64_t b_rows = p.transb == 't' ? p.n : p.k, b_cols = p.transb == 't' ? p.k : p.n;
  Check(cublasLtMatrixLayoutCreate(&plan->la, CUDA_R_32F, a_rows, a_cols, p.lda), "layout a");
  Check(cublasLtMatrixLayoutCreate(&plan->lb, CUDA_R_32F, b_rows, b_cols, p.ldb), "layout b");
  Check(cublasLtMatrixLayoutCreate(&plan->lc, CUDA_R_32F, p.m, p.n, p.ldc), "layout c");
  cublasLtMatmulPreference_t pref = nullptr;
  Check(cublasLtMatmulPreferenceCreate(&pref), "preference");
  size_t ws = kLtWorkspace;
  Check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                             sizeof(ws)),
        "preference workspace");
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  cublasStatus_t rc = cublasLtMatmulAlgoGetHeuristic(lt, plan->desc, plan->la, plan->lb, plan->lc,
                                                     plan->lc, pref, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  Check(rc, "heuristic");
  if (found == 0) throw std::runtime_error("cuBLASLt: no algorithm for this problem");
  plan->algo = result.algo;
  return plan;
}

int64_t RunLt(Tensors as, Tensors bs, Tensors outs, Tensors biases, int64_t iters, bool between) {
  auto ps = Problems(as, bs, outs, biases);
  cublasLtHandle_t lt = nullptr;
  Check(cublasLtCreate(&lt), "cublasLtCreate");
  at::Tensor workspace = at::empty({static_cast<int64_t>(kLtWorkspace)},
                                   as[0].options().dtype(at::kByte));
  std::vector<std::unique_ptr<LtPlan>> plans;
  for (const Problem& p : ps) plans.push_back(MakeLtPlan(lt, p));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream().stream();
  const float alpha = 1.0f, beta = 0.0f;
  int64_t ns = Loop(ps.size(), iters, between, [&](size_t i) {
    const Problem& p = ps[i];
    const LtPlan& plan = *plans[i];
    Check(cublasLtMatmul(lt, plan.desc, &alpha, p.b.data_ptr<float>(), plan.la,
                         p.a.data_ptr<float>(), plan.lb, &beta, p.out.data_ptr<float>(), plan.lc,
                         p.out.data_ptr<float>(), plan.lc, &plan.algo, workspace.data_ptr(),
                         kLtWorkspace, stream),
          "cublasLtMatmul");
  });
  Check(cudaStreamSynchronize(stream), "sync");
  plans.clear();
  cublasLtDestroy(lt);
  return ns;
}

int64_t RunAddmmAten(Tensors as, Tensors bs, Tensors outs, Tensors biases, int64_t iters,
                     bool between) {
  auto ps = Problems(as, bs, outs, biases);
  return Loop(ps.size(), iters, between, [&](size_t i) {
    at::addmm_out(ps[i].out, ps[i].bias, ps[i].a, ps[i].b, 1, 1);
  });
}

int64_t RunAddmmAtenCuda(Tensors as, Tensors bs, Tensors outs, Tensors biases, int64_t iters,
                         bool between) {
  auto ps = Problems(as, bs, outs, biases);
  return Loop(ps.size(), iters, between, [&](size_t i) {
    at::cuda::addmm_out(ps[i].out, ps[i].bias, ps[i].a, ps[i].b, 1, 1);
  });
}

int64_t RunLaunch(int64_t iters) { return Loop(1, iters, true, [](size_t) {}); }

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("aten", &RunAten);
  m.def("aten_cuda", &RunAtenCuda);
  m.def("cublas", &RunCublas);
  m.def("lt", &RunLt);
  m.def("addmm_aten", &RunAddmmAten);
  m.def("addmm_aten_cuda", &RunAddmmAtenCuda);
  m.def("launch", &RunLaunch);
}
