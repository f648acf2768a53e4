// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for CANN's acl/acl.h (acl_rt.h): the host-args launch
// family of newer triton-ascend launchers, with CANN's layouts.
#ifndef FASTLAUNCH_STUB_ACL_H
#define FASTLAUNCH_STUB_ACL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtFuncHandle;
#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0

typedef enum { ACL_MEMCPY_HOST_TO_HOST = 0, ACL_MEMCPY_HOST_TO_DEVICE = 1 } aclrtMemcpyKind;

typedef enum {
  ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
  ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
} aclrtLaunchKernelAttrId;

typedef union {
  uint8_t schemMode;
  uint32_t localMemorySize;
  uint32_t dynUBufSize;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct {
  aclrtLaunchKernelAttr* attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;

typedef struct aclrtPlaceHolderInfo aclrtPlaceHolderInfo;

typedef enum {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

typedef struct {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct {
  aclrtMemLocation location;
  uint32_t pageSize;
  uint32_t rsv[4];
} aclrtPtrAttributes;

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum);
aclError aclrtGetHardwareSyncAddr(void** addr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes);

#ifdef __cplusplus
}
#endif
#endif
