"""CUDA C/C++ -> HIP: each mapping kind, launches, headers, the report and statistics."""

import re

from hipify_helpers import SAMPLES

from gpusim.hipify import hipify_cpp, load_table
from gpusim.hipify.lexer import tokenize


def test_each_mapping_kind_in_the_runtime_sample():
    text = hipify_cpp((SAMPLES / "runtime.cu").read_text()).text
    for hip in ("hipMalloc", "hipMemcpyAsync", "hipMemcpyHostToDevice", "hipError_t",
                "hipSuccess", "hipGetErrorString", "hipGetLastError", "hipStream_t",
                "hipStreamNonBlocking", "hipEvent_t", "hipEventElapsedTime", "hipDeviceProp_t",
                "hipHostMalloc", "hipHostFree", "<hip/hip_runtime.h>"):
        assert hip in text, hip
    assert not re.search(r"\bcuda[A-Z]", text)


def test_kinds_are_hipifys():
    result = hipify_cpp("cudaError_t e = cudaMalloc(&p, 4); if (e != cudaSuccess) {}\n")
    kinds = {c.cuda: c.kind for c in result.conversions}
    assert kinds == {"cudaError_t": "type", "cudaMalloc": "memory",
                     "cudaSuccess": "numeric_literal"}


def test_library_names_hip_and_roc():
    source = "cublasSgemm(h); curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT); " \
             "cufftExecC2C(p); cusparseCreate(&s); cusolverDnCreate(&d);"
    hip = hipify_cpp(source).text
    roc = hipify_cpp(source, roc=True).text
    for name in ("hipblasSgemm", "hiprandCreateGenerator", "HIPRAND_RNG_PSEUDO_DEFAULT",
                 "hipfftExecC2C", "hipsparseCreate", "hipsolverDnCreate"):
        assert name in hip
    for name in ("rocblas_sgemm", "rocrand_create_generator", "rocsparse_create_handle"):
        assert name in roc


def test_nccl_header_becomes_rccl_and_names_stay():
    call = "ncclAllReduce(a, b, n, ncclFloat, ncclSum, c, s);\n"
    result = hipify_cpp("#include <nccl.h>\n" + call)
    assert result.text == "#include <rccl/rccl.h>\n" + call
    assert not result.findings


def test_launch_kept_by_default_and_rewritten_on_request():
    source = "k<<<g, b>>>(x);\nns::k2<T, 4><<<g, b, shm, s>>>();\n"
    assert hipify_cpp(source).text == source
    assert hipify_cpp(source, hip_kernel_syntax=True).text == (
        '#include "hip/hip_runtime.h"\n'  # a launch is device code: hipify-perl adds it
        "hipLaunchKernelGGL(k, g, b, 0, 0, x);\n"
        "hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::k2<T, 4>), g, b, shm, s);\n")


def test_symbol_argument_wrapped_once():
    once = hipify_cpp("cudaMemcpyFromSymbol(dst, sym, 4);").text
    assert once == "hipMemcpyFromSymbol(dst, HIP_SYMBOL(sym), 4);"
    assert hipify_cpp(once).text == once


def test_runtime_header_added_for_device_code_only_once():
    text = hipify_cpp("__global__ void k() {}\nvoid f() { cudaDeviceSynchronize(); }\n").text
    assert text.startswith('#include "hip/hip_runtime.h"\n__global__')
    assert hipify_cpp(text).text == text
    assert not hipify_cpp("void f() { cudaDeviceSynchronize(); }").text.startswith("#include")


def test_runtime_header_added_to_device_code_with_nothing_to_rename():
    """As hipify-perl: device code is enough (cuda-samples' sharedmem.cuh has no CUDA name)."""
    kernel = "__global__ void k(float *x) { x[0] = 1; }\n"
    assert hipify_cpp(kernel).text == '#include "hip/hip_runtime.h"\n' + kernel
    device = "__device__ float sq(float x) { return x * x; }\n"  # hipify-perl: no header
    assert hipify_cpp(device).text == device


def test_comments_strings_members_and_lookalikes_untouched():
    source = (SAMPLES / "untouched.cu").read_text()
    assert hipify_cpp(source).text == source


def test_unsupported_reported_with_lines_and_kind():
    result = hipify_cpp((SAMPLES / "unsupported.cu").read_text())
    found = {(f.line, f.name, f.category) for f in result.unmapped}
    assert (6, "cudaInitDevice", "unsupported") in found
    assert (9, "cudaMyHomegrownHelper", "unknown") in found
    assert (3, "cuda/barrier", "unknown") in found
    kinds = {f.name: f.kind for f in result.unmapped}
    assert kinds["cudaInitDevice"] == load_table().unsupported_kind("cudaInitDevice") == "device"
    assert "cudaInitDevice(0, 0, 0);" in result.text  # left as is


def test_statistics_block_in_hipify_perls_format():
    stats = hipify_cpp("cudaFree(a);\ncudaFree(b);\ncudaInitDevice(0, 0, 0);\n").statistics("f.cu")
    lines = stats.splitlines()
    assert lines[1] == "[HIPIFY] info: file 'f.cu' statistics:"
    assert "  CONVERTED refs count: 2" in lines
    assert "  UNCONVERTED refs count: 1" in lines
    assert "  TOTAL lines of code: 3" in lines
    assert "  cudaFree => hipFree: 2" in lines
    assert lines[lines.index("[HIPIFY] info: CONVERTED refs by type:") + 1] == "  memory: 2"
    assert lines[lines.index("[HIPIFY] info: UNCONVERTED refs by type:") + 1] == "  device: 1"


def test_warp32_sample_flags_each_hazard():
    result = hipify_cpp((SAMPLES / "warp32.cu").read_text())
    by_line = {}
    for finding in result.warp_warnings:
        by_line.setdefault(finding.line, []).append(finding.message)
    assert "16" in by_line[5][0]                        # for (offset = 16 ...)
    assert "0xffffffff" in " ".join(by_line[6])         # __shfl_down_sync mask
    assert "% 32" in by_line[13][0] and ">> 5" in by_line[14][0]
    assert "warpSize" in by_line[19][0]                 # blockDim.x / warpSize
    assert any("32 bits" in m for m in by_line[22])     # unsigned int = __ballot_sync
    assert any("literal 32" in m for m in by_line[24])  # __shfl_sync(..., 32)
    assert "wave64" in result.report("warp32.cu") and "64 lanes" in result.report("x")


def test_warp_code_written_for_wave64_is_quiet():
    source = ("__device__ float r(float v) {\n"
              "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);\n"
              "  unsigned long long m = __ballot(v > 0);\n  return v + __popcll(m);\n}\n")
    assert [f.message for f in hipify_cpp(source).warp_warnings if "literal" in f.message] == []
    assert not [f for f in hipify_cpp(source).warp_warnings if "32 bits" in f.message]


def test_lexer_keeps_every_byte_and_finds_headers():
    source = (SAMPLES / "runtime.cu").read_text()
    tokens = tokenize(source)
    assert "".join(t.text for t in tokens) == source
    assert [t.text for t in tokens if t.kind == "header"] == ["<cuda_runtime.h>", "<cstdio>"]


OCCUPANCY = ("cuOccupancyMaxPotentialBlockSize(&minGrid, &block, func, "
             "blockSizeToDynamicSMemSize, dynSMem, blockSizeLimit);\n")


def test_occupancy_callback_argument_is_dropped_as_hipify_perl_does():
    """HIP's module API has no CUoccupancyB2DSize parameter: the 4th argument goes."""
    result = hipify_cpp(OCCUPANCY)
    assert result.text == ("hipModuleOccupancyMaxPotentialBlockSize(&minGrid, &block, func, "
                           "dynSMem, blockSizeLimit);\n")
    flags = hipify_cpp("cuOccupancyMaxPotentialBlockSizeWithFlags(&g, &b, f, cb, shm, lim, 0);")
    assert flags.text == "hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&g, &b, f, shm, lim, 0);"
    # once only: the HIP call (already without the callback) is left alone
    assert hipify_cpp(result.text).text == result.text
    assert hipify_cpp(flags.text).text == flags.text


def test_dropped_argument_may_hold_commas_parentheses_and_newlines():
    source = ("cuOccupancyMaxPotentialBlockSize(&g, &b, f,\n"
              "    pick(sizes, 2),  // bytes per block size\n"
              "    smem(f, 1), 0);\n")
    assert hipify_cpp(source).text == ("hipModuleOccupancyMaxPotentialBlockSize(&g, &b, f,\n"
                                       "    smem(f, 1), 0);\n")


def test_dropping_a_real_callback_is_reported_and_a_null_one_is_not():
    lost = [f for f in hipify_cpp(OCCUPANCY).findings if f.category == "dropped"]
    assert [(f.line, f.name) for f in lost] == [(1, "cuOccupancyMaxPotentialBlockSize")]
    assert "blockSizeToDynamicSMemSize" in lost[0].message and not lost[0].unmapped
    for null in ("0", "NULL", "nullptr"):
        call = f"cuOccupancyMaxPotentialBlockSize(&g, &b, f, {null}, 64, 0);"
        result = hipify_cpp(call)
        assert result.text == "hipModuleOccupancyMaxPotentialBlockSize(&g, &b, f, 64, 0);"
        assert not result.findings


USER_NAMES = """\
#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e) exit(1); } while (0)
#define cudaCheckError() { cudaError_t e = cudaGetLastError(); if (e) exit(1); }
#define CHECK(cudaCall) (cudaCall)
struct cudaExtResObj { int cudaDevice; };
typedef struct { float x; } cudaVec;
static int cudaGridSize = 0, cudaBlockSize[4];
void cudaHelper(cudaExtResObj *cudaParams, const float &cudaScale);
void cudaHelper(cudaExtResObj *cudaParams, const float &cudaScale) {
    cublasHandle_t cublasHandle;
    CUdevice cuDevice;
    checkCudaErrors(cudaMalloc(&p, 4));
    cudaCheckError();
    CUDA_CHECK(cudaFree(p));
    CHECK(cudaGridSize + cudaBlockSize[0] + cudaParams->cudaDevice + (int)cudaScale);
    cudaVec v = cudaUnheardOfApi(cuSomethingNew(cublasNewCall(CUDA_NEW_MACRO)));
}
"""


def test_unknown_only_for_cuda_api_lookalikes_the_file_does_not_define():
    """hipify-perl's pattern (``\\bcuda[A-Z]\\w+``), less the names the file declares."""
    unknown = [(f.line, f.name) for f in hipify_cpp(USER_NAMES).findings
               if f.category == "unknown"]
    assert unknown == [(15, "cudaUnheardOfApi")]
    for use in ("return cudaFancy(x);", "y = a * cudaFancy(x);", "if (a > cudaFancy(x)) {}",
                "throw cudaFancy(x);", "case cudaFancy: break;", "else cudaFancy(x);"):
        # uses that look a little like declarations still warn
        assert [f.name for f in hipify_cpp(use).findings] == ["cudaFancy"], use


def test_names_declared_later_in_the_file_count_too():
    source = "int main() { return cudaLater(); }\nint cudaLater() { return 0; }\n"
    assert not hipify_cpp(source).findings
    assert [f.name for f in hipify_cpp("int f() { return cudaLater(); }").findings] == \
        ["cudaLater"]
