// SPDX-License-Identifier: Apache-2.0
// The recording fake CANN runtime's own entry points (recorder.c): what the
// stub headers route the task queue and the allocator through, and what a
// test drives it with. Both the reference launcher and fastlaunch reach the
// same library, so every call either side makes lands in one event log.
#ifndef FASTLAUNCH_CANN_RECORDER_H
#define FASTLAUNCH_CANN_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*rec_task_run)(void* ctx);
typedef void (*rec_task_release)(void* ctx);

// torch_npu's task queue (OpCommand::Run): same contract as fastlaunch's
// "fastlaunch.npu_submit" capsule. Runs the task now, or later with
// rec_run_pending() when deferral is on.
int rec_submit(const char* name, rec_task_run run, rec_task_release release, void* ctx);
// Device memory from the caching allocator: kind 0 workspace (at::empty),
// kind 1 sync-block locks (allocate_workspace). Returns a fresh address.
uint64_t rec_alloc(int kind, uint64_t size, uint64_t stream);

#ifdef __cplusplus
}
#endif
#endif
