// SPDX-License-Identifier: Apache-2.0
// The floor for benchmarks/bench_cuda.py: a C loop of cuLaunchKernel with a
// prepacked parameter buffer (libcuda opened at run time).
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef int (*launch_fn)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, unsigned, void*, void**, void**);

// Returns the seconds `n` launches took, or -rc on the first failure.
double raw_launch_loop(uint64_t function, uint64_t stream, int n, unsigned grid_x,
                       unsigned block_x, unsigned shared, void* params, size_t size) {
  static launch_fn launch = 0;
  if (!launch) {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) return -1e9;
    launch = (launch_fn)dlsym(lib, "cuLaunchKernel");
    if (!launch) return -1e9;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < n; ++i) {
    void* extra[] = {(void*)1, params, (void*)2, &size, (void*)0};
    int rc = launch((void*)function, grid_x, 1, 1, block_x, 1, 1, shared, (void*)stream, 0,
                    extra);
    if (rc != 0) return -(double)rc;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}
