// SPDX-License-Identifier: Apache-2.0
// The few CANN runtime types the NPU launch path passes across the ABI.
//
// fastlaunch resolves CANN at run time and builds without it, so these are
// declared here. tests/unit/integrations/test_npu_contract.py compiles them beside the
// real acl/acl_rt.h shipped in the torch-npu wheel and static_asserts every
// size, offset and enum value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fastlaunch::cann {

// acl/acl_rt.h: aclrtPointerGetAttributes, with which newer generated
// launchers check every tensor address before launching.
struct PtrAttributes {
  uint32_t location_id;
  uint32_t location_type;  // aclrtMemLocationType
  uint32_t page_size;
  uint32_t rsv[4];
};
constexpr uint32_t kMemLocationDevice = 1;
constexpr uint32_t kMemLocationHostNuma = 4;  // also accepted by the launchers
using PointerGetAttributes = int (*)(const void* ptr, PtrAttributes* attributes);

// runtime (rt) API, the launch API of every triton-ascend branch. rtArgsEx_t:
// CANN 8 declares 32-bit tiling offsets (40 bytes), torch_npu's hacl_rt.h
// 16-bit ones (32 bytes). Only args (offset 0) and argsSize (offset 16) are
// set, everything else is zero, so the 40-byte zeroed form reads the same
// under both declarations.
struct RtArgsEx {
  void* args;
  void* host_input_info;
  uint32_t args_size;
  uint32_t tiling_addr_offset;
  uint32_t tiling_data_offset;
  uint16_t host_input_info_num;
  uint8_t has_tiling;
  uint8_t is_no_need_h2d_copy;
  uint8_t reserved[4];
};
static_assert(sizeof(RtArgsEx) == 40, "rtArgsEx_t mirror");
static_assert(offsetof(RtArgsEx, args_size) == 16, "rtArgsEx_t.argsSize");

// rtTaskCfgInfo_t: localMemorySize at offset 12, 16 bytes in all.
struct RtTaskCfgInfo {
  uint8_t qos;
  uint8_t part_id;
  uint8_t schem_mode;
  bool d2d_cross_flag;
  uint32_t block_dim_offset;
  uint8_t dump_flag;
  uint8_t never_timeout;
  uint8_t rev[2];
  uint32_t local_memory_size;
};
static_assert(sizeof(RtTaskCfgInfo) == 16, "rtTaskCfgInfo_t mirror");
static_assert(offsetof(RtTaskCfgInfo, local_memory_size) == 12,
              "rtTaskCfgInfo_t.localMemorySize");

using RtKernelLaunch = int (*)(const void* stub, uint32_t block_dim, void* args,
                               uint32_t args_size, void* sm_desc, void* stream);
using RtKernelLaunchWithFlagV2 = int (*)(const void* stub, uint32_t block_dim,
                                         RtArgsEx* args_info, void* sm_desc,
                                         void* stream, uint32_t flag,
                                         const RtTaskCfgInfo* cfg);
using RtGetC2cCtrlAddr = int (*)(uint64_t* addr, uint32_t* len);
// rtMemcpy; kind 1 is host to device.
using Memcpy = int (*)(void* dst, uint64_t dst_max, const void* src,
                       uint64_t count, int kind);
constexpr int kMemcpyHostToDevice = 1;
using StreamSynchronize = int (*)(void* stream);
using GetDevice = int (*)(int32_t* device);

// msprof (prof_callback.h): the switch triton-ascend's generated launcher
// registers for (module 8, CCE) and reads before reporting a launch.
using MsprofCallback = int (*)(uint32_t ctrl_type, void* data, uint32_t len);
using MsprofRegisterCallback = int (*)(uint32_t module_id, MsprofCallback cb);
constexpr uint32_t kMsprofModuleCce = 8;
constexpr uint32_t kMsprofCtrlSwitch = 1;
constexpr uint32_t kMsprofCommandStart = 1;
constexpr uint32_t kMsprofCommandStop = 2;
constexpr uint32_t kMsprofCommandFinalize = 3;
constexpr uint64_t kMsprofSwitchL0 = 0x800;  // task time (API records)
constexpr uint64_t kMsprofSwitchL1 = 0x2;    // node/tensor info
// The head of MsprofCommandHandle: profSwitch, profSwitchHi, devNums,
// devIdList[64], modelId, type.
struct MsprofCommandHead {
  uint64_t prof_switch;
  uint64_t prof_switch_hi;
  uint32_t dev_nums;
  uint32_t dev_ids[64];
  uint32_t model_id;
  uint32_t type;
};
static_assert(offsetof(MsprofCommandHead, type) == 280,
              "MsprofCommandHandle.type");

// Task-queue submission, provided by the torch_npu shim (an OpCommand custom
// handler). `run` launches and returns the runtime's code; `release` frees
// the context exactly once, after `run` or when the task is dropped.
using TaskRun = int (*)(void* ctx);
using TaskRelease = void (*)(void* ctx);
using Submit = int (*)(const char* name, TaskRun run, TaskRelease release,
                       void* ctx);
constexpr const char* kSubmitCapsule = "fastlaunch.npu_submit";

// Stream-ordered device memory for the sync-block locks, as triton-ascend's
// launcher takes it inside the task (torch_npu's allocate_workspace):
// `alloc` returns the address and an owner that `release` drops after the
// launch (the caching allocator reuses it only for later work on `stream`).
struct WorkspaceAllocator {
  void* (*alloc)(uint64_t size, void* stream, void** owner);
  void (*release)(void* owner);
};
constexpr const char* kWorkspaceCapsule = "fastlaunch.npu_workspace";

}  // namespace fastlaunch::cann
