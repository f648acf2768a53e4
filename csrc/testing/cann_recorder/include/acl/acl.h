// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for CANN's acl/acl.h (acl_rt.h): the one ACL call a
// generated triton-ascend launcher makes (newer branches check each tensor
// address with aclrtPointerGetAttributes), with CANN's layouts.
#ifndef FASTLAUNCH_STUB_ACL_H
#define FASTLAUNCH_STUB_ACL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0

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

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes);

#ifdef __cplusplus
}
#endif
#endif
