// gpusim's <hip/hip_runtime_api.h>: HIP's host runtime API, declared as ROCm's header
// declares it (names, argument order, enum values: HIP's documentation, "HIP runtime API
// reference"). Written for gpusim, not copied. Every `extern "C"` function below is
// implemented by gpusim's runtime (gpusim/hipcc/hostapi.py), reached through the small
// shim that gpusim.hipcc generates from these declarations.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <__gpusim_enums.h>  // enum hipError_t, with HIP's numeric values

#if defined(__HIP__)
#define __GPUSIM_HD __attribute__((host, device))
#else
#define __GPUSIM_HD
#endif

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000)
#define __HIP_PLATFORM_AMD__ 1
#define __HIP_PLATFORM_HCC__ 1

struct dim3 {
  uint32_t x, y, z;
  constexpr __GPUSIM_HD dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1)
      : x(x_), y(y_), z(z_) {}
};

typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipModule_t* hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef void* hipDeviceptr_t;
typedef int hipDevice_t;
typedef struct ihipCtx_t* hipCtx_t;

enum hipComputeMode {
  hipComputeModeDefault = 0, hipComputeModeExclusive = 1, hipComputeModeProhibited = 2,
  hipComputeModeExclusiveProcess = 3
};
enum hipMemcpyKind {
  hipMemcpyHostToHost = 0, hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3, hipMemcpyDefault = 4
};
enum hipMemoryType {
  hipMemoryTypeUnregistered = 0, hipMemoryTypeHost = 1, hipMemoryTypeDevice = 2,
  hipMemoryTypeManaged = 3
};
enum hipFuncCache_t {
  hipFuncCachePreferNone = 0, hipFuncCachePreferShared = 1, hipFuncCachePreferL1 = 2,
  hipFuncCachePreferEqual = 3
};
enum hipSharedMemConfig {
  hipSharedMemBankSizeDefault = 0, hipSharedMemBankSizeFourByte = 1,
  hipSharedMemBankSizeEightByte = 2
};
enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1, hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3, hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5, hipMemAdviseUnsetAccessedBy = 6
};
#include <hip/texture_types.h>  // arrays, resource and texture descriptors
// Values as ROCm's hip_runtime_api.h numbers them (ROCm/HIP rocm-6.2.0, 50ec90c; the same
// at c5e11fc), counted from hipDeviceAttributeCudaCompatibleBegin = 0.
enum hipDeviceAttribute_t {
  hipDeviceAttributeAsyncEngineCount = 2, hipDeviceAttributeCanMapHostMemory = 3,
  hipDeviceAttributeClockRate = 5, hipDeviceAttributeComputeMode = 6,
  hipDeviceAttributeComputePreemptionSupported = 7, hipDeviceAttributeConcurrentKernels = 8,
  hipDeviceAttributeCooperativeLaunch = 10, hipDeviceAttributeIntegrated = 16,
  hipDeviceAttributeKernelExecTimeout = 18, hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeComputeCapabilityMajor = 23, hipDeviceAttributeManagedMemory = 24,
  hipDeviceAttributeMaxBlockDimX = 26, hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28, hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30, hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMaxThreadsPerMultiProcessor = 57, hipDeviceAttributeMemoryBusWidth = 59,
  hipDeviceAttributeMemoryClockRate = 60, hipDeviceAttributeComputeCapabilityMinor = 61,
  hipDeviceAttributeMultiprocessorCount = 63, hipDeviceAttributePciBusId = 67,
  hipDeviceAttributePciDeviceId = 68, hipDeviceAttributeMaxRegistersPerBlock = 71,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74, hipDeviceAttributeTotalConstantMemory = 83,
  hipDeviceAttributeWarpSize = 87, hipDeviceAttributeMemoryPoolsSupported = 88,
  // ROCm's AMD-specific attributes count from hipDeviceAttributeAmdSpecificBegin = 10000
  hipDeviceAttributeImageSupport = 10014
};

// Fields as in ROCm's hipDeviceProp_t (the ones gpusim models); see hipGetDeviceProperties.
struct hipDeviceProp_t {
  char name[256];
  char gcnArchName[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  size_t maxSharedMemoryPerMultiProcessor;
  int regsPerMultiprocessor;
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  int isMultiGpuBoard;
  int canMapHostMemory;
  int concurrentKernels;
  int managedMemory;
  int concurrentManagedAccess;
  int unifiedAddressing;
  int cooperativeLaunch;
  int asyncEngineCount;
  int integrated;
  int ECCEnabled;
  int computeMode;
  // ROCm fields gpusim reports from the same profile
  int clockInstructionRate;
  size_t memPitch;
  size_t textureAlignment;
  int kernelExecTimeoutEnabled;
  int gcnArch;
  int cooperativeMultiDeviceLaunch;
  int pageableMemoryAccess;
  // image (texture/surface) limits, as ROCm reports them for CDNA; gpusim has no images
  int maxTexture1DLinear;
  int maxTexture1D;
  int maxTexture2D[2];
  int maxTexture3D[3];
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  size_t texturePitchAlignment;
  size_t surfaceAlignment;
  int tccDriver;
  int computePreemptionSupported;
};

struct hipFuncAttributes {
  int binaryVersion;
  int cacheModeCA;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxDynamicSharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int preferredShmemCarveout;
  int ptxVersion;
  size_t sharedSizeBytes;
};

struct hipPointerAttribute_t {
  enum hipMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  int isManaged;
  unsigned allocationFlags;
};

enum hipFunction_attribute {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2, HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  HIP_FUNC_ATTRIBUTE_NUM_REGS = 4, HIP_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  HIP_FUNC_ATTRIBUTE_BINARY_VERSION = 6, HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9, HIP_FUNC_ATTRIBUTE_MAX = 10
};

// ---- the stream-ordered allocator: memory pools (hipMallocAsync). Types and values as
// ROCm's hip_runtime_api.h declares them (ROCm/HIP c5e11fc); access, export and import
// of pools are not modelled, so not declared.
typedef struct ihipMemPoolHandle_t* hipMemPool_t;
enum hipMemPoolAttr {
  hipMemPoolReuseFollowEventDependencies = 0x1,    // int: reuse across hipStreamWaitEvent
  hipMemPoolReuseAllowOpportunistic = 0x2,         // int: reuse frees that completed
  hipMemPoolReuseAllowInternalDependencies = 0x3,  // int
  hipMemPoolAttrReleaseThreshold = 0x4,            // uint64_t: freed bytes kept at a sync
  hipMemPoolAttrReservedMemCurrent = 0x5,          // uint64_t, get only
  hipMemPoolAttrReservedMemHigh = 0x6,             // uint64_t, set to 0 only
  hipMemPoolAttrUsedMemCurrent = 0x7,              // uint64_t, get only
  hipMemPoolAttrUsedMemHigh = 0x8                  // uint64_t, set to 0 only
};
enum hipMemLocationType { hipMemLocationTypeInvalid = 0, hipMemLocationTypeDevice = 1 };
struct hipMemLocation {
  hipMemLocationType type;
  int id;
};
enum hipMemAllocationType {
  hipMemAllocationTypeInvalid = 0x0, hipMemAllocationTypePinned = 0x1,
  hipMemAllocationTypeMax = 0x7FFFFFFF
};
enum hipMemAllocationHandleType {
  hipMemHandleTypeNone = 0x0, hipMemHandleTypePosixFileDescriptor = 0x1,
  hipMemHandleTypeWin32 = 0x2, hipMemHandleTypeWin32Kmt = 0x4
};
struct hipMemPoolProps {
  hipMemAllocationType allocType;
  hipMemAllocationHandleType handleTypes;
  hipMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned char reserved[56];
};

typedef void (*hipHostFn_t)(void* userData);
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void* userData);

// ---- graphs and stream capture: handle types, enums and parameter structs with the
// names, values and field order of ROCm's hip_runtime_api.h (ROCm/HIP, HIP graph API)
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef struct hipGraphExec* hipGraphExec_t;
enum hipGraphNodeType {
  hipGraphNodeTypeKernel = 0, hipGraphNodeTypeMemcpy = 1, hipGraphNodeTypeMemset = 2,
  hipGraphNodeTypeHost = 3, hipGraphNodeTypeGraph = 4, hipGraphNodeTypeEmpty = 5,
  hipGraphNodeTypeWaitEvent = 6, hipGraphNodeTypeEventRecord = 7,
  hipGraphNodeTypeExtSemaphoreSignal = 8, hipGraphNodeTypeExtSemaphoreWait = 9,
  hipGraphNodeTypeMemAlloc = 10, hipGraphNodeTypeMemFree = 11,
  hipGraphNodeTypeMemcpyFromSymbol = 12, hipGraphNodeTypeMemcpyToSymbol = 13,
  hipGraphNodeTypeCount
};
enum hipGraphExecUpdateResult {
  hipGraphExecUpdateSuccess = 0x0, hipGraphExecUpdateError = 0x1,
  hipGraphExecUpdateErrorTopologyChanged = 0x2, hipGraphExecUpdateErrorNodeTypeChanged = 0x3,
  hipGraphExecUpdateErrorFunctionChanged = 0x4, hipGraphExecUpdateErrorParametersChanged = 0x5,
  hipGraphExecUpdateErrorNotSupported = 0x6,
  hipGraphExecUpdateErrorUnsupportedFunctionChange = 0x7
};
enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = 0, hipStreamCaptureModeThreadLocal,
  hipStreamCaptureModeRelaxed
};
enum hipStreamCaptureStatus {
  hipStreamCaptureStatusNone = 0, hipStreamCaptureStatusActive,
  hipStreamCaptureStatusInvalidated
};
enum hipGraphInstantiateFlags {
  hipGraphInstantiateFlagAutoFreeOnLaunch = 1, hipGraphInstantiateFlagUpload = 2,
  hipGraphInstantiateFlagDeviceLaunch = 4, hipGraphInstantiateFlagUseNodePriority = 8
};
struct hipKernelNodeParams {
  dim3 blockDim;
  void** extra;
  void* func;
  dim3 gridDim;
  void** kernelParams;
  unsigned int sharedMemBytes;
};
struct hipMemsetParams {
  void* dst;
  unsigned int elementSize;
  size_t height;
  size_t pitch;
  unsigned int value;
  size_t width;
};
struct hipHostNodeParams {
  hipHostFn_t fn;
  void* userData;
};
enum hipMemAccessFlags {
  hipMemAccessFlagsProtNone = 0, hipMemAccessFlagsProtRead = 1,
  hipMemAccessFlagsProtReadWrite = 3
};
struct hipMemAccessDesc {
  hipMemLocation location;
  hipMemAccessFlags flags;
};
struct hipMemAllocNodeParams {
  hipMemPoolProps poolProps;  // poolProps.location.id: the device
  const hipMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;  // out: the allocation's address
};

#define hipStreamDefault 0x0
#define hipStreamNonBlocking 0x1
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostAllocDefault hipHostMallocDefault
#define hipHostAllocPortable hipHostMallocPortable
#define hipHostAllocMapped hipHostMallocMapped
#define hipHostAllocWriteCombined hipHostMallocWriteCombined
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipMemAttachGlobal 0x1
#define hipMemAttachHost 0x2
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceMapHost 0x8
#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)
#define hipStreamPerThread ((hipStream_t)2)
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void*)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void*)0x02)
#define HIP_LAUNCH_PARAM_END ((void*)0x03)

extern "C" {
// ---- devices
hipError_t hipInit(unsigned int flags);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int* deviceId);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId);
hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipSetDeviceFlags(unsigned flags);
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig);
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipDriverGetVersion(int* driverVersion);
hipError_t hipRuntimeGetVersion(int* runtimeVersion);
hipError_t hipDeviceGet(hipDevice_t* device, int ordinal);
hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device);
hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device);
hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device);
hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device);
hipError_t hipCtxDestroy(hipCtx_t ctx);
hipError_t hipCtxSetCurrent(hipCtx_t ctx);
hipError_t hipCtxGetCurrent(hipCtx_t* ctx);
hipError_t hipCtxSynchronize(void);
hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);
// ---- errors
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char* hipGetErrorString(hipError_t hipError);
const char* hipGetErrorName(hipError_t hipError);
// ---- profiler control (deprecated in HIP, kept for ports of cudaProfilerStart/Stop)
hipError_t hipProfilerStart(void);
hipError_t hipProfilerStop(void);
// ---- memory
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
hipError_t hipHostFree(void* ptr);
hipError_t hipMallocHost(void** ptr, size_t size);
hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags);
hipError_t hipFreeHost(void* ptr);
hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags);
hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void* hostPtr);
hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags);
hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device, hipStream_t stream);
hipError_t hipMemAdvise(const void* dev_ptr, size_t count, hipMemoryAdvise advice, int device);
hipError_t hipMemGetInfo(size_t* free, size_t* total);
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr);
hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind);
hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId,
                         size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream);
hipError_t hipMemset(void* dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count);
// ---- the stream-ordered allocator
hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream);
hipError_t hipMallocFromPoolAsync(void** dev_ptr, size_t size, hipMemPool_t mem_pool,
                                  hipStream_t stream);
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t* mem_pool, int device);
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool);
hipError_t hipDeviceGetMemPool(hipMemPool_t* mem_pool, int device);
hipError_t hipMemPoolCreate(hipMemPool_t* mem_pool, const hipMemPoolProps* pool_props);
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool);
hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold);
hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value);
hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes,
                             size_t offset, hipMemcpyKind kind);
hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes,
                                  size_t offset, hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes,
                               size_t offset, hipMemcpyKind kind);
hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes,
                                    size_t offset, hipMemcpyKind kind, hipStream_t stream);
hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol);
hipError_t hipGetSymbolSize(size_t* size, const void* symbol);
// ---- streams and events
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags);
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority);
hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags);
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                void* userData, unsigned int flags);
hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);
// ---- kernels: launch, occupancy, attributes, modules
hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                           void** args, size_t sharedMemBytes, hipStream_t stream);
hipError_t hipLaunchCooperativeKernel(const void* f, dim3 gridDim, dim3 blockDimX,
                                      void** kernelParams, unsigned int sharedMemBytes,
                                      hipStream_t stream);
hipError_t hipFuncGetAttributes(struct hipFuncAttributes* attr, const void* func);
hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* f,
                                                        int blockSize, size_t dynSharedMemPerBlk);
hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, const void* f,
                                             size_t dynSharedMemPerBlk, int blockSizeLimit);
hipError_t hipModuleLoad(hipModule_t* module, const char* fname);
hipError_t hipModuleLoadData(hipModule_t* module, const void* image);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                const char* kname);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream,
                                 void** kernelParams, void** extra);
hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod,
                              const char* name);
hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc);
hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize,
                                                   hipFunction_t f, size_t dynSharedMemPerBlk,
                                                   int blockSizeLimit);
// ---- graphs and stream capture (gpusim/runtime/graphs.py, capture.py)
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* pGraph);
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus);
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus,
                                   unsigned long long* pId);
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode);
hipError_t hipGraphCreate(hipGraph_t* pGraph, unsigned int flags);
hipError_t hipGraphDestroy(hipGraph_t graph);
hipError_t hipGraphClone(hipGraph_t* pGraphClone, hipGraph_t originalGraph);
hipError_t hipGraphAddKernelNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipKernelNodeParams* pNodeParams);
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t* pDependencies,
                                   size_t numDependencies, void* dst, const void* src,
                                   size_t count, hipMemcpyKind kind);
hipError_t hipGraphAddMemsetNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipMemsetParams* pMemsetParams);
hipError_t hipGraphAddHostNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                               const hipGraphNode_t* pDependencies, size_t numDependencies,
                               const hipHostNodeParams* pNodeParams);
hipError_t hipGraphAddEmptyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                const hipGraphNode_t* pDependencies, size_t numDependencies);
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t* pDependencies,
                                   size_t numDependencies, hipMemAllocNodeParams* pNodeParams);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                  const hipGraphNode_t* pDependencies, size_t numDependencies,
                                  void* dev_ptr);
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                   const hipGraphNode_t* to, size_t numDependencies);
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* numNodes);
hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* pType);
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
                                       const hipKernelNodeParams* pNodeParams);
hipError_t hipGraphInstantiate(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                               hipGraphNode_t* pErrorNode, char* pLogBuffer,
                               size_t bufferSize);
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                                        unsigned long long flags);
hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec);
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams* pNodeParams);
hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                              hipGraphNode_t* hErrorNode_out,
                              hipGraphExecUpdateResult* updateResult_out);
// ---- gpusim: a kernel's host stub hands its launch to the emulator (kernel<<<...>>>)
hipError_t __gpusim_launch(const char* kernel, const void* stub, void** args,
                           const dim3* grid, const dim3* block, size_t shared,
                           hipStream_t stream);
// ---- arrays and texture objects (gpusim/hipcc/textures.py)
hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width,
                          size_t height = 0, unsigned int flags = hipArrayDefault);
hipError_t hipMalloc3DArray(hipArray_t* array, const struct hipChannelFormatDesc* desc,
                            struct hipExtent extent, unsigned int flags);
hipError_t hipFreeArray(hipArray_t array);
hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned int* flags,
                           hipArray_t array);
hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array);
hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                              size_t spitch, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height,
                                hipMemcpyKind kind);
hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                            size_t count, hipMemcpyKind kind);
hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t srcArray, size_t wOffset,
                              size_t hOffset, size_t count, hipMemcpyKind kind);
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms* p);
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
hipError_t hipCreateTextureObject(hipTextureObject_t* pTexObject,
                                  const hipResourceDesc* pResDesc,
                                  const hipTextureDesc* pTexDesc,
                                  const struct hipResourceViewDesc* pResViewDesc);
hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* pResDesc,
                                           hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* pTexDesc,
                                          hipTextureObject_t textureObject);
// The program's device variables (host shadow address, C++ name) and kernels (host stub
// address, name), registered when gpusim loads it.
void __gpusim_register_var(const void* shadow, const char* name, size_t size);
void __gpusim_register_kernel(const void* stub, const char* name);
}  // extern "C"

// ---- C++ conveniences of ROCm's header: typed pointers and default arguments
template <class T> inline hipError_t hipMalloc(T** ptr, size_t size) {
  return hipMalloc(reinterpret_cast<void**>(ptr), size);
}
template <class T> inline hipError_t hipHostMalloc(T** ptr, size_t size,
                                                   unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
inline hipError_t hipHostMalloc(void** ptr, size_t size) {
  return hipHostMalloc(ptr, size, hipHostMallocDefault);
}
template <class T> inline hipError_t hipMallocManaged(T** ptr, size_t size,
                                                      unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}
inline hipError_t hipMallocManaged(void** ptr, size_t size) {
  return hipMallocManaged(ptr, size, hipMemAttachGlobal);
}
template <class T> inline hipError_t hipHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return hipHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T> inline hipError_t hipMallocHost(T** ptr, size_t size) {
  return hipMallocHost(reinterpret_cast<void**>(ptr), size);
}
template <class T> inline hipError_t hipMallocPitch(T** ptr, size_t* pitch, size_t w, size_t h) {
  return hipMallocPitch(reinterpret_cast<void**>(ptr), pitch, w, h);
}
template <class T> inline hipError_t hipHostGetDevicePointer(T** dev, void* host,
                                                             unsigned int flags) {
  return hipHostGetDevicePointer(reinterpret_cast<void**>(dev), host, flags);
}
inline hipError_t hipMallocAsync(void** ptr, size_t size, hipMemPool_t pool, hipStream_t s) {
  return hipMallocFromPoolAsync(ptr, size, pool, s);
}
template <class T> inline hipError_t hipMallocAsync(T** ptr, size_t size, hipMemPool_t pool,
                                                    hipStream_t stream) {
  return hipMallocFromPoolAsync(reinterpret_cast<void**>(ptr), size, pool, stream);
}
template <class T> inline hipError_t hipMallocAsync(T** ptr, size_t size, hipStream_t stream) {
  return hipMallocAsync(reinterpret_cast<void**>(ptr), size, stream);
}
template <class T> inline hipError_t hipMallocFromPoolAsync(T** ptr, size_t size,
                                                            hipMemPool_t pool,
                                                            hipStream_t stream) {
  return hipMallocFromPoolAsync(reinterpret_cast<void**>(ptr), size, pool, stream);
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t n, hipMemcpyKind kind) {
  return hipMemcpyAsync(dst, src, n, kind, nullptr);
}
inline hipError_t hipMemsetAsync(void* dst, int value, size_t n) {
  return hipMemsetAsync(dst, value, n, nullptr);
}
inline hipError_t hipMemPrefetchAsync(const void* p, size_t n, int device) {
  return hipMemPrefetchAsync(p, n, device, nullptr);
}
inline hipError_t hipEventRecord(hipEvent_t event) { return hipEventRecord(event, nullptr); }
inline hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e) {
  return hipStreamWaitEvent(s, e, 0);
}
inline hipError_t hipMemcpyPeerAsync(void* dst, int dd, const void* src, int sd, size_t n) {
  return hipMemcpyPeerAsync(dst, dd, src, sd, n, nullptr);
}
template <class T> inline hipError_t hipMemcpyToSymbol(const T& symbol, const void* src,
    size_t sizeBytes, size_t offset = 0, hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol(static_cast<const void*>(&symbol), src, sizeBytes, offset, kind);
}
template <class T> inline hipError_t hipMemcpyToSymbolAsync(const T& symbol, const void* src,
    size_t sizeBytes, size_t offset, hipMemcpyKind kind, hipStream_t stream = nullptr) {
  return hipMemcpyToSymbolAsync(static_cast<const void*>(&symbol), src, sizeBytes, offset,
                                kind, stream);
}
template <class T> inline hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol,
    size_t sizeBytes, size_t offset = 0, hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), sizeBytes, offset, kind);
}
template <class T> inline hipError_t hipGetSymbolAddress(void** devPtr, const T& symbol) {
  return hipGetSymbolAddress(devPtr, static_cast<const void*>(&symbol));
}
template <class T> inline hipError_t hipGetSymbolSize(size_t* size, const T& symbol) {
  return hipGetSymbolSize(size, static_cast<const void*>(&symbol));
}
template <class T> inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(
    int* numBlocks, T f, int blockSize, size_t dynSharedMemPerBlk = 0) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, reinterpret_cast<const void*>(f), blockSize, dynSharedMemPerBlk);
}
template <class T> inline hipError_t hipOccupancyMaxPotentialBlockSize(
    int* gridSize, int* blockSize, T f, size_t dynSharedMemPerBlk = 0, int blockSizeLimit = 0) {
  return hipOccupancyMaxPotentialBlockSize(gridSize, blockSize,
                                           reinterpret_cast<const void*>(f),
                                           dynSharedMemPerBlk, blockSizeLimit);
}
template <class T> inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, T f) {
  return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(f));
}
template <class T> inline hipError_t hipLaunchKernel(T f, dim3 grid, dim3 block, void** args,
                                                     size_t shared = 0,
                                                     hipStream_t stream = nullptr) {
  return hipLaunchKernel(reinterpret_cast<const void*>(f), grid, block, args, shared, stream);
}
template <class T> inline hipError_t hipLaunchCooperativeKernel(
    T f, dim3 gridDim, dim3 blockDim, void** kernelParams, unsigned int sharedMemBytes,
    hipStream_t stream) {
  return hipLaunchCooperativeKernel(reinterpret_cast<const void*>(f), gridDim, blockDim,
                                    kernelParams, sharedMemBytes, stream);
}
#define HIP_SUCCESS hipSuccess
// HIP_SYMBOL(x) names a device variable for the *Symbol calls (ROCm: the variable itself).
#define HIP_SYMBOL(X) X
