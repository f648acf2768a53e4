// SPDX-License-Identifier: Apache-2.0
// Minimal stand-in for CANN's msprof reporting API (toolchain/prof_api.h,
// profiling/aprof_pub.h): record layouts and the calls a generated
// triton-ascend launcher makes.
#ifndef FASTLAUNCH_STUB_PROF_API_H
#define FASTLAUNCH_STUB_PROF_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSPROF_REPORT_DATA_MAGIC_NUM 0x5A5AU
#define MSPROF_COMPACT_INFO_DATA_LENGTH 40
#define MSPROF_ADDTIONAL_INFO_DATA_LENGTH 232
#define MSPROF_GE_TENSOR_DATA_SHAPE_LEN 8
#define MSPROF_GE_TENSOR_DATA_NUM 5
#define MSPROF_CTX_ID_MAX_NUM 55
#define MSPROF_REPORT_NODE_LEVEL 10000U
#define MSPROF_REPORT_NODE_BASIC_INFO_TYPE 0U
#define MSPROF_REPORT_NODE_TENSOR_INFO_TYPE 1U
#define MSPROF_REPORT_NODE_CONTEXT_ID_INFO_TYPE 4U
#define MSPROF_REPORT_NODE_LAUNCH_TYPE 5U

enum MsprofGeTaskType {
  MSPROF_GE_TASK_TYPE_AI_CORE = 0,
  MSPROF_GE_TASK_TYPE_AI_CPU,
  MSPROF_GE_TASK_TYPE_AIV,
  MSPROF_GE_TASK_TYPE_WRITE_BACK,
  MSPROF_GE_TASK_TYPE_MIX_AIC,
  MSPROF_GE_TASK_TYPE_MIX_AIV,
};
enum MsprofGeTensorType { MSPROF_GE_TENSOR_TYPE_INPUT = 0, MSPROF_GE_TENSOR_TYPE_OUTPUT };

struct MsprofCommandHandleParams {
  uint32_t pathLen;
  uint32_t storageLimit;
  uint32_t profDataLen;
  char path[1024];
  char profData[4096];
};

struct MsprofCommandHandle {
  uint64_t profSwitch;
  uint64_t profSwitchHi;
  uint32_t devNums;
  uint32_t devIdList[64];
  uint32_t modelId;
  uint32_t type;
  uint32_t cacheFlag;
  struct MsprofCommandHandleParams params;
};

#pragma pack(1)
struct MsprofNodeBasicInfo {
  uint64_t opName;
  uint32_t taskType;
  uint64_t opType;
  uint32_t blockDim;
  uint32_t opFlag;
};
struct MsrofTensorData {
  uint32_t tensorType;
  uint32_t format;
  uint32_t dataType;
  uint32_t shape[MSPROF_GE_TENSOR_DATA_SHAPE_LEN];
};
struct MsprofTensorInfo {
  uint64_t opName;
  uint32_t tensorNum;
  struct MsrofTensorData tensorData[MSPROF_GE_TENSOR_DATA_NUM];
};
struct MsprofContextIdInfo {
  uint64_t opName;
  uint32_t ctxIdNum;
  uint32_t ctxIds[MSPROF_CTX_ID_MAX_NUM];
};
#pragma pack()

#ifdef __cplusplus
#define FL_MAGIC = MSPROF_REPORT_DATA_MAGIC_NUM  // CANN's C++ default
#else
#define FL_MAGIC
#endif

struct MsprofApi {
  uint16_t magicNumber FL_MAGIC;
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t reserve;
  uint64_t beginTime;
  uint64_t endTime;
  uint64_t itemId;
};

struct MsprofCompactInfo {
  uint16_t magicNumber FL_MAGIC;
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t dataLen;
  uint64_t timeStamp;
  union {
    uint8_t info[MSPROF_COMPACT_INFO_DATA_LENGTH];
    struct MsprofNodeBasicInfo nodeBasicInfo;
  } data;
};

struct MsprofAdditionalInfo {
  uint16_t magicNumber FL_MAGIC;
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t dataLen;
  uint64_t timeStamp;
  uint8_t data[MSPROF_ADDTIONAL_INFO_DATA_LENGTH];
};

#ifdef __cplusplus
typedef struct MsprofApi MsprofApi;
typedef struct MsprofCompactInfo MsprofCompactInfo;
typedef struct MsprofAdditionalInfo MsprofAdditionalInfo;
typedef struct MsprofContextIdInfo MsprofContextIdInfo;
typedef struct MsprofTensorInfo MsprofTensorInfo;
typedef struct MsprofCommandHandle MsprofCommandHandle;
#endif

typedef int32_t (*ProfCommandHandle)(uint32_t type, void* data, uint32_t len);
int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle);
int32_t MsprofReportApi(uint32_t agingFlag, const struct MsprofApi* api);
int32_t MsprofReportCompactInfo(uint32_t agingFlag, const void* data, uint32_t length);
int32_t MsprofReportAdditionalInfo(uint32_t agingFlag, const void* data, uint32_t length);
uint64_t MsprofGetHashId(const char* hashInfo, size_t length);
uint64_t MsprofSysCycleTime(void);

#ifdef __cplusplus
}
#endif
#endif
