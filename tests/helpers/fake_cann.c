// SPDX-License-Identifier: Apache-2.0
// A fake CANN runtime for tests: exports the launch and FFTS symbols of the
// ACL API (built with -DFAKE_ACL) or the older rt API (-DFAKE_RT), records
// every call and can be told to fail. Also a fake task queue (fake_submit)
// that defers tasks until fake_run_pending().
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// CANN's launch types: the C stand-ins in fastlaunch/selfcheck/cann_recorder/include.
#include "acl/acl.h"
#include "runtime/runtime/rt.h"

#define MAX_RECORDS 256
#define MAX_ARGS 512

typedef struct {
  char api[32];
  uint64_t func;
  uint32_t block_dim;
  uint64_t stream;
  int32_t attr_id;        // -1: no cfg
  uint32_t attr_value;    // dynUBufSize / localMemorySize
  uint32_t args_size;
  unsigned char args[MAX_ARGS];
} Record;

static Record records[MAX_RECORDS];
static int n_records = 0;
static int launch_error = 0;
static uint64_t ffts_addr = 0xFF75000000ull;
static int ffts_queries = 0;
static int recording = 1;  // 0: launches succeed without a record (benchmarks)

static int record(const char* api, const void* func, uint32_t block_dim, void* stream,
                  int32_t attr_id, uint32_t attr_value, const void* args, size_t size) {
  if (launch_error) return launch_error;
  if (!recording) return 0;
  if (n_records >= MAX_RECORDS || size > MAX_ARGS) return 507899;
  Record* r = &records[n_records++];
  strncpy(r->api, api, sizeof r->api - 1);
  r->func = (uint64_t)(uintptr_t)func;
  r->block_dim = block_dim;
  r->stream = (uint64_t)(uintptr_t)stream;
  r->attr_id = attr_id;
  r->attr_value = attr_value;
  r->args_size = (uint32_t)size;
  memcpy(r->args, args, size);
  return 0;
}

#ifdef FAKE_ACL
int aclrtLaunchKernelWithHostArgs(void* func, uint32_t block_dim, void* stream,
                                  aclrtLaunchKernelCfg* cfg, void* host_args, size_t args_size,
                                  aclrtPlaceHolderInfo* holders, size_t n_holders) {
  if (holders != NULL || n_holders != 0) return 100000;
  int32_t id = -1;
  uint32_t value = 0;
  if (cfg != NULL) {
    if (cfg->numAttrs != 1) return 100001;
    id = cfg->attrs[0].id;
    value = cfg->attrs[0].value.dynUBufSize;
  }
  return record("acl", func, block_dim, stream, id, value, host_args, args_size);
}

int aclrtGetHardwareSyncAddr(void** addr) {
  ++ffts_queries;
  *addr = (void*)(uintptr_t)ffts_addr;
  return 0;
}
#endif

#ifdef FAKE_RT

int rtKernelLaunch(const void* stub, uint32_t block_dim, void* args, uint32_t args_size,
                   void* sm_desc, void* stream) {
  if (sm_desc != NULL) return 100002;
  return record("rt", stub, block_dim, stream, -1, 0, args, args_size);
}

int rtKernelLaunchWithFlagV2(const void* stub, uint32_t block_dim, rtArgsEx_t* info,
                             void* sm_desc, void* stream, uint32_t flag,
                             const rtTaskCfgInfo_t* cfg) {
  if (sm_desc != NULL || flag != 0 || info->hostInputInfoPtr != NULL || info->hasTiling)
    return 100003;
  return record("rt-v2", stub, block_dim, stream, 2, cfg->localMemorySize, info->args,
                info->argsSize);
}

int rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len) {
  ++ffts_queries;
  *addr = ffts_addr;
  *len = 8;
  return 0;
}
#endif

// ---- test controls ----
int fake_count(void) { return n_records; }
const Record* fake_record(int i) { return (i >= 0 && i < n_records) ? &records[i] : NULL; }
void fake_reset(void) {
  n_records = 0;
  launch_error = 0;
  ffts_queries = 0;
  recording = 1;
  ffts_addr = 0xFF75000000ull;
}
void fake_set_launch_error(int code) { launch_error = code; }
void fake_set_ffts_addr(uint64_t addr) { ffts_addr = addr; }
int fake_ffts_queries(void) { return ffts_queries; }
void fake_set_recording(int on) { recording = on; }

// ---- fake task queue, same contract as the torch_npu shim ----
typedef int (*TaskRun)(void*);
typedef void (*TaskRelease)(void*);
typedef struct { TaskRun run; TaskRelease release; void* ctx; char name[64]; } Pending;
static Pending pending[MAX_RECORDS];
static int n_pending = 0;
static int submit_error = 0;
static int released = 0;
static int last_run_rc = 0;

int fake_submit(const char* name, TaskRun run, TaskRelease release, void* ctx) {
  if (submit_error || n_pending >= MAX_RECORDS) {
    release(ctx);
    ++released;
    return submit_error ? submit_error : -1;
  }
  Pending* p = &pending[n_pending++];
  p->run = run; p->release = release; p->ctx = ctx;
  strncpy(p->name, name, sizeof p->name - 1);
  return 0;
}

int fake_run_pending(void) {
  int ran = 0;
  for (int i = 0; i < n_pending; ++i) {
    last_run_rc = pending[i].run(pending[i].ctx);
    pending[i].release(pending[i].ctx);
    ++released;
    ++ran;
  }
  n_pending = 0;
  return ran;
}

int fake_pending(void) { return n_pending; }
int fake_released(void) { return released; }
int fake_last_run_rc(void) { return last_run_rc; }
void fake_set_submit_error(int code) { submit_error = code; }
const char* fake_pending_name(int i) { return (i >= 0 && i < n_pending) ? pending[i].name : ""; }
void* fake_submit_address(void) { return (void*)&fake_submit; }
