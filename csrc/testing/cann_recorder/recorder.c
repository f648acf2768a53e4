// SPDX-License-Identifier: Apache-2.0
// A recording fake of the CANN runtime, msprof and torch_npu's task queue.
//
// It exports every entry point a generated triton-ascend launcher and
// fastlaunch's NPU backend can reach, and logs each call with
// what the device would have been told: API, handle, block dim, stream,
// argument bytes, launch config, memory copies, allocations, task names and
// profiler records. Tests read the log through ascend_reference/recorder.py.
//
// Builds for unit tests leave parts out, so that a test can offer the
// backend exactly the runtime it means: -DREC_WITHOUT_RT drops the launch and
// FFTS symbols; -DREC_WITHOUT_SERVICES drops copies, stream synchronisation,
// pointer queries and msprof.
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "recorder.h"
#include "runtime/runtime/rt.h"
#include "toolchain/prof_api.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_EVENTS 4096
#define MAX_DATA 2048
#define MAX_PENDING 1024
#define MAX_CALLBACKS 16384
// attr_id of a launch given an rtTaskCfgInfo_t (its localMemorySize in attr_value).
#define REC_ATTR_LOCAL_MEMORY 2

typedef struct {
  char api[40];
  char name[72];          // task name, hashed string
  uint64_t handle;        // kernel handle; memcpy dst; allocation or FFTS address
  uint64_t stream;
  uint64_t value;         // launch rc; memcpy count; allocation size; hash; task rc
  uint64_t value2;        // memcpy destMax; launch-config fields other than the UB size
  uint32_t block_dim;
  int32_t attr_id;        // -1: launched without a config; REC_ATTR_LOCAL_MEMORY
  uint32_t attr_value;    // localMemorySize
  uint32_t flags;         // launch flags; memcpy kind; allocation kind; attr count
  uint32_t size;          // full size of what `data` holds (maybe cut at MAX_DATA)
  unsigned char data[MAX_DATA];
} RecEvent;

static RecEvent events[MAX_EVENTS];
static int n_events = 0;
static int overflowed = 0;
static int logging = 1;  // 0: nothing is logged (benchmarks), calls behave the same
static int launch_error = 0;
static int submit_error = 0;
static int copy_error = 0;     // rc of rtMemcpy
static int pointer_error = 0;  // rc of aclrtPointerGetAttributes
static uint64_t ffts_addr = 0xFF75000000ull;
static uint64_t next_address = 0;

typedef struct { rec_task_run run; rec_task_release release; void* ctx; char name[72]; } Pending;
static Pending pending[MAX_PENDING];
static int n_pending = 0;
static int deferred = 0;
static int last_task_rc = 0;
static int released = 0;  // task contexts handed back (run or refused)

static ProfCommandHandle callbacks[MAX_CALLBACKS];
static int n_callbacks = 0;

static RecEvent* add(const char* api) {
  if (!logging) return NULL;
  if (n_events >= MAX_EVENTS) {
    overflowed = 1;
    return NULL;
  }
  RecEvent* e = &events[n_events++];
  memset(e, 0, sizeof *e);
  snprintf(e->api, sizeof e->api, "%s", api);
  e->attr_id = -1;
  return e;
}

static void put_data(RecEvent* e, const void* data, uint64_t size) {
  e->size = (uint32_t)size;
  if (data != NULL) memcpy(e->data, data, size < MAX_DATA ? size : MAX_DATA);
}

#ifndef REC_WITHOUT_RT
// Logs a launch (its rc in `value`); *out is the event, NULL when nothing is logged.
static int launch(const char* api, const void* func, uint32_t block_dim, void* stream,
                  const void* args, uint64_t size, RecEvent** out) {
  RecEvent* e = *out = add(api);
  if (e == NULL) return overflowed ? 507899 : launch_error;
  e->handle = (uint64_t)(uintptr_t)func;
  e->block_dim = block_dim;
  e->stream = (uint64_t)(uintptr_t)stream;
  e->value = (uint64_t)(int64_t)launch_error;
  put_data(e, args, size);
  return launch_error;
}

// ---- launch and FFTS ----
EXPORT rtError_t rtKernelLaunch(const void* stub, uint32_t block_dim, void* args,
                                uint32_t args_size, void* sm_desc, rtStream_t stream) {
  RecEvent* e;
  int rc = launch("rtKernelLaunch", stub, block_dim, stream, args, args_size, &e);
  if (e != NULL) e->value2 = (uint64_t)(uintptr_t)sm_desc;
  return rc;
}

EXPORT rtError_t rtKernelLaunchWithFlagV2(const void* stub, uint32_t block_dim,
                                          rtArgsEx_t* info, void* sm_desc, rtStream_t stream,
                                          uint32_t flags, const rtTaskCfgInfo_t* cfg) {
  RecEvent* e;
  int rc = launch("rtKernelLaunchWithFlagV2", stub, block_dim, stream, info->args,
                  info->argsSize, &e);
  if (e == NULL) return rc;
  e->flags = flags;
  // Anything but args/argsSize/localMemorySize set would change the launch.
  e->value2 = (uint64_t)(uintptr_t)sm_desc | (uint64_t)(uintptr_t)info->hostInputInfoPtr |
              info->tilingAddrOffset | info->tilingDataOffset | info->hostInputInfoNum |
              info->hasTiling | info->isNoNeedH2DCopy;
  if (cfg != NULL) {
    e->attr_id = REC_ATTR_LOCAL_MEMORY;
    e->attr_value = cfg->localMemorySize;
    e->value2 |= (uint64_t)cfg->qos | cfg->partId | cfg->schemMode | cfg->d2dCrossFlag |
                 cfg->blockDimOffset | cfg->dumpflag | cfg->neverTimeout;
  }
  return rc;
}

EXPORT rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len) {
  RecEvent* e = add("rtGetC2cCtrlAddr");
  if (e != NULL) e->handle = ffts_addr;
  *addr = ffts_addr;
  *len = 8;
  return 0;
}
#endif

// Newer launchers check each tensor address: every pointer reads as device 0
// memory unless a test marks host addresses (rec_set_host_below).
static uint64_t host_below = 0;

EXPORT void rec_set_host_below(uint64_t address) { host_below = address; }

// ---- torch_npu: caching allocator and task queue ----
EXPORT uint64_t rec_alloc(int kind, uint64_t size, uint64_t stream) {
  uint64_t address = 0x7E0000000000ull + next_address;
  next_address += (size + 0xFFFFF) & ~0xFFFFFull;
  next_address += 0x100000;
  RecEvent* e = add("alloc");
  if (e != NULL) {
    e->handle = address;
    e->value = size;
    e->flags = (uint32_t)kind;
    e->stream = stream;
  }
  return address;
}

static void run_task(Pending* p) {
  last_task_rc = p->run(p->ctx);
  p->release(p->ctx);
  ++released;
}

EXPORT int rec_submit(const char* name, rec_task_run run, rec_task_release release, void* ctx) {
  RecEvent* e = add("task");
  if (e != NULL) snprintf(e->name, sizeof e->name, "%s", name);
  if (submit_error || (deferred && n_pending >= MAX_PENDING)) {
    release(ctx);
    ++released;
    return submit_error ? submit_error : -1;
  }
  Pending p = {run, release, ctx, ""};
  snprintf(p.name, sizeof p.name, "%s", name);
  if (deferred) {
    pending[n_pending++] = p;
    return 0;
  }
  run_task(&p);
  if (e != NULL) e->value = (uint64_t)(int64_t)last_task_rc;
  return 0;
}

EXPORT int rec_run_pending(void) {
  int ran = n_pending;
  for (int i = 0; i < n_pending; ++i) run_task(&pending[i]);
  n_pending = 0;
  return ran;
}

EXPORT void* rec_submit_address(void) { return (void*)&rec_submit; }

#ifndef REC_WITHOUT_SERVICES
// ---- copies, stream synchronisation and pointer queries ----
static int memcpy_event(const char* api, void* dst, uint64_t dest_max, const void* src,
                        uint64_t count, int kind) {
  RecEvent* e = add(api);
  if (e == NULL) return overflowed ? 507899 : copy_error;
  e->handle = (uint64_t)(uintptr_t)dst;
  e->value = count;
  e->value2 = dest_max;
  e->flags = (uint32_t)kind;
  put_data(e, src, count);
  return copy_error;
}

static int sync_event(const char* api, void* stream) {
  RecEvent* e = add(api);
  if (e != NULL) e->stream = (uint64_t)(uintptr_t)stream;
  return 0;
}

EXPORT rtError_t rtMemcpy(void* dst, uint64_t dest_max, const void* src, uint64_t count,
                          rtMemcpyKind_t kind) {
  return memcpy_event("rtMemcpy", dst, dest_max, src, count, kind);
}

EXPORT rtError_t rtStreamSynchronize(rtStream_t stream) {
  return sync_event("rtStreamSynchronize", stream);
}

EXPORT aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  RecEvent* e = add("aclrtPointerGetAttributes");
  if (e != NULL) e->handle = (uint64_t)(uintptr_t)ptr;
  if (pointer_error != 0) return pointer_error;
  memset(attributes, 0, sizeof *attributes);
  attributes->location.type = (uint64_t)(uintptr_t)ptr < host_below
                                  ? ACL_MEM_LOCATION_TYPE_UNREGISTERED
                                  : ACL_MEM_LOCATION_TYPE_DEVICE;
  return 0;
}

// ---- msprof ----
EXPORT int32_t MsprofRegisterCallback(uint32_t module_id, ProfCommandHandle handle) {
  RecEvent* e = add("MsprofRegisterCallback");
  if (e != NULL) e->value = module_id;
  if (n_callbacks >= MAX_CALLBACKS) return -1;
  callbacks[n_callbacks++] = handle;
  return 0;
}

static int32_t report(const char* api, uint32_t aging, const void* data, uint32_t length) {
  RecEvent* e = add(api);
  if (e == NULL) return overflowed ? -1 : 0;
  e->flags = aging;
  put_data(e, data, length);
  return 0;
}

EXPORT int32_t MsprofReportApi(uint32_t aging, const struct MsprofApi* api) {
  return report("MsprofReportApi", aging, api, sizeof *api);
}

EXPORT int32_t MsprofReportCompactInfo(uint32_t aging, const void* data, uint32_t length) {
  return report("MsprofReportCompactInfo", aging, data, length);
}

EXPORT int32_t MsprofReportAdditionalInfo(uint32_t aging, const void* data, uint32_t length) {
  return report("MsprofReportAdditionalInfo", aging, data, length);
}

EXPORT uint64_t MsprofGetHashId(const char* info, size_t length) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a: stable across runs
  for (size_t i = 0; i < length; ++i) hash = (hash ^ (unsigned char)info[i]) * 1099511628211ull;
  RecEvent* e = add("MsprofGetHashId");
  if (e != NULL) {
    e->value = hash;
    snprintf(e->name, sizeof e->name, "%.*s", (int)(length < 71 ? length : 71), info);
    put_data(e, info, length);
  }
  return hash;
}

EXPORT uint64_t MsprofSysCycleTime(void) {
  static uint64_t cycle = 0;
  return ++cycle;
}
#endif

// ---- test controls ----
// Sends msprof's switch command (type 1 = start) to every registered callback.
EXPORT int rec_prof_command(uint32_t type, uint64_t prof_switch) {
  static struct MsprofCommandHandle command;
  memset(&command, 0, sizeof command);
  command.type = type;
  command.profSwitch = prof_switch;
  int failed = 0;
  for (int i = 0; i < n_callbacks; ++i)
    failed += callbacks[i](1, &command, sizeof command) != 0;
  return failed;
}

EXPORT int rec_count(void) { return n_events; }
EXPORT const RecEvent* rec_event(int i) { return (i >= 0 && i < n_events) ? &events[i] : NULL; }
EXPORT int rec_overflowed(void) { return overflowed; }
EXPORT int rec_pending(void) { return n_pending; }
EXPORT const char* rec_pending_name(int i) {
  return (i >= 0 && i < n_pending) ? pending[i].name : "";
}
EXPORT int rec_released(void) { return released; }
EXPORT void rec_set_logging(int on) { logging = on; }
EXPORT int rec_last_task_rc(void) { return last_task_rc; }
EXPORT int rec_callbacks(void) { return n_callbacks; }
EXPORT void rec_set_launch_error(int code) { launch_error = code; }
EXPORT void rec_set_submit_error(int code) { submit_error = code; }
EXPORT void rec_set_copy_error(int code) { copy_error = code; }
EXPORT void rec_set_pointer_error(int code) { pointer_error = code; }
EXPORT void rec_set_ffts_addr(uint64_t addr) { ffts_addr = addr; }
EXPORT void rec_set_deferred(int on) { deferred = on; }
EXPORT size_t rec_event_size(void) { return sizeof(RecEvent); }


// Clears the log and the fault settings; pending tasks run first so none leak.
EXPORT void rec_reset(void) {
  rec_run_pending();
  n_events = 0;
  overflowed = 0;
  launch_error = 0;
  submit_error = 0;
  copy_error = 0;
  pointer_error = 0;
  deferred = 0;
  ffts_addr = 0xFF75000000ull;
  next_address = 0;
  host_below = 0;
  logging = 1;
}
