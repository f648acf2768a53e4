// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for CANN's runtime/rt.h: the types and calls a generated
// triton-ascend launcher uses, with CANN's layouts (see npu_abi.h in csrc).
#ifndef FASTLAUNCH_STUB_RT_H
#define FASTLAUNCH_STUB_RT_H

#include <stddef.h>
#include <stdint.h>

#include "toolchain/prof_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t rtError_t;
typedef void* rtStream_t;
#define RT_ERROR_NONE 0

typedef enum { RT_MEMCPY_HOST_TO_HOST = 0, RT_MEMCPY_HOST_TO_DEVICE = 1 } rtMemcpyKind_t;

typedef struct {
  void* args;
  void* hostInputInfoPtr;
  uint32_t argsSize;
  uint32_t tilingAddrOffset;
  uint32_t tilingDataOffset;
  uint16_t hostInputInfoNum;
  uint8_t hasTiling;
  uint8_t isNoNeedH2DCopy;
  uint8_t reserved[4];
} rtArgsEx_t;

typedef struct {
  uint8_t qos;
  uint8_t partId;
  uint8_t schemMode;
  uint8_t d2dCrossFlag;
  uint32_t blockDimOffset;
  uint8_t dumpflag;
  uint8_t neverTimeout;
  uint8_t rev[2];
  uint32_t localMemorySize;
} rtTaskCfgInfo_t;

rtError_t rtKernelLaunch(const void* stubFunc, uint32_t blockDim, void* args, uint32_t argsSize,
                         void* smDesc, rtStream_t stream);
rtError_t rtKernelLaunchWithFlagV2(const void* stubFunc, uint32_t blockDim, rtArgsEx_t* argsInfo,
                                   void* smDesc, rtStream_t stream, uint32_t flags,
                                   const rtTaskCfgInfo_t* cfgInfo);
rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len);
rtError_t rtMemcpy(void* dst, uint64_t destMax, const void* src, uint64_t count,
                   rtMemcpyKind_t kind);
rtError_t rtStreamSynchronize(rtStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
