"""The host half compiled for real: exit statuses, files and headers, the gpusim-hipcc
command, code objects, hiprtc, several translation units, the direct-mode cache, and the
shim's coverage of the API its header declares."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from gpusim import hip, hipcc
from gpusim.hipcc import hostapi, shim
from gpusim.hipcc.program import kernel_name


def _compile(src: str, **kw):
    return hipcc.compile(textwrap.dedent(src), **kw)


@pytest.mark.parametrize("body, status, err", [
    ("return 7;", 7, ""),
    ("exit(3);", 3, ""),
    ("std::exit(EXIT_FAILURE);", 1, ""),
    ("abort();", 134, "Aborted"),
    ('assert(argc > 5 && "needs args");', 134, "Assertion `argc > 5 && \"needs args\"' failed"),
    ('throw std::runtime_error("boom");', 134, "boom"),
])
def test_exit_abort_assert_and_exceptions_end_main_not_the_process(body, status, err, capsys):
    mod = _compile(f"""
    #include <cstdlib>
    #include <stdexcept>
    int main(int argc, char** argv) {{ {body} return 0; }}""")
    assert mod.run() == status
    assert err in capsys.readouterr().err
    assert mod.run() == status  # and it runs again: nothing of the process was lost


def test_assert_names_the_users_file_and_function(tmp_path, capsys):
    src = tmp_path / "prog.hip"
    src.write_text("#include <cassert>\nint main() {\n  assert(1 == 2);\n}\n")
    assert hipcc.compile(filename=src).run() == 134
    assert f"{src}:3: int main(): Assertion `1 == 2' failed." in capsys.readouterr().err


def test_device_properties_after_get_device_and_extern_c_kernel(capsys, fresh_system):
    mod = _compile("""
    #include <hip/hip_runtime.h>
    #include <iostream>
    extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] += a * x[i];
    }
    int main() {
      int id = -1; hipGetDevice(&id);
      hipDeviceProp_t p;
      if (hipGetDeviceProperties(&p, id) != hipSuccess) return 1;
      std::cout << p.name << " " << p.warpSize << std::endl;
      return 0;
    }""")
    assert mod.run() == 0
    props = hip.hipGetDeviceProperties(0)
    assert capsys.readouterr().out == f"{props.name} {props.warpSize}\n"
    x = hip.to_device(np.arange(8, dtype=np.float32))
    y = hip.to_device(np.ones(8, np.float32))
    mod.get_kernel("saxpy")[1, 8](np.float32(2), x, y, 8)
    np.testing.assert_array_equal(y.copy_to_host(), 1 + 2 * np.arange(8, dtype=np.float32))


def test_templates_constant_memory_and_device_variables(capsys, fresh_system):
    mod = _compile("""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    __constant__ float coef[4] = {1, 2, 3, 4};
    __device__ int counter;
    template <typename T, int SCALE>
    __global__ void scale(T* out, const T* in, unsigned n) {
      unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) { out[i] = in[i] * SCALE * coef[i % 4]; atomicAdd(&counter, 1); }
    }
    template <class T> void run(int n, T* host) {
      T *d_in, *d_out;
      hipMalloc(&d_in, n * sizeof(T)); hipMalloc(&d_out, n * sizeof(T));
      hipMemcpy(d_in, host, n * sizeof(T), hipMemcpyHostToDevice);
      hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<T, 3>), dim3(1), dim3(64), 0, 0, d_out, d_in,
                         (unsigned)n);
      hipMemcpy(host, d_out, n * sizeof(T), hipMemcpyDeviceToHost);
      hipFree(d_in); hipFree(d_out);
    }
    int main() {
      float f[8]; double d[8];
      for (int i = 0; i < 8; ++i) { f[i] = 1; d[i] = 2; }
      run(8, f);
      float ten[4] = {10, 10, 10, 10};
      hipMemcpyToSymbol(HIP_SYMBOL(coef), ten, sizeof(ten));
      run(8, d);
      int count = 0;
      hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof(int));
      printf("%g %g %g %g | %g | %d\\n", f[0], f[1], f[2], f[3], d[5], count);
      return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "3 6 9 12 | 60 | 16\n"


def test_mapped_pinned_and_managed_memory_are_one_address_space(capsys, fresh_system):
    mod = _compile("""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    __global__ void inc(float* a, int step) { a[threadIdx.x] += step; }
    int main() {
      float *pinned, *dev, *managed, in[8], out[8];
      for (int i = 0; i < 8; ++i) in[i] = i;
      hipHostMalloc((void**)&pinned, sizeof(in), hipHostMallocMapped);
      hipHostGetDevicePointer((void**)&dev, pinned, 0);
      hipMemcpy(dev, in, sizeof(in), hipMemcpyHostToDevice);
      inc<<<1, 8>>>(dev, 1);
      hipDeviceSynchronize();
      hipMemcpy(out, dev, sizeof(out), hipMemcpyDeviceToHost);
      hipMallocManaged(&managed, sizeof(in));
      for (int i = 0; i < 8; ++i) managed[i] = 10 * i;
      inc<<<1, 8>>>(managed, 2);
      hipDeviceSynchronize();
      printf("%g %g %g\\n", pinned[3], out[3], managed[3]);
      hipHostFree(pinned); hipFree(managed);
      return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "4 4 32\n"


def test_host_memory_passed_to_a_kernel_faults_and_says_what_to_do(capsys, fresh_system):
    mod = _compile("""
    #include <hip/hip_runtime.h>
    __global__ void k(float* a) { a[threadIdx.x] = 1; }
    int main() { float host[4]; k<<<1, 4>>>(host); hipDeviceSynchronize(); return 0; }
    """)
    assert mod.run() == 134  # a memory access fault kills a HIP program
    err = capsys.readouterr().err
    assert "kernel 'k' argument 'a' is host memory" in err and "hipMalloc" in err


def test_a_kernel_fault_aborts_main_with_the_cpp_place(capsys, fresh_system, tmp_path):
    src = tmp_path / "fault.hip"
    src.write_text("#include <hip/hip_runtime.h>\n"
                   "__global__ void k(int* a) {\n  a[threadIdx.x + 100] = 1;\n}\n"
                   "int main() { int* d; hipMalloc(&d, 16); k<<<1, 4>>>(d);\n"
                   "  hipDeviceSynchronize(); return 0; }\n")
    assert hipcc.compile(filename=src).run() == 134
    err = capsys.readouterr().err
    assert f"{src}:3" in err and ".py" not in err


def test_user_headers_and_the_direct_cache_follow_their_changes(tmp_path, capsys):
    (tmp_path / "inc").mkdir()
    header = tmp_path / "inc" / "value.h"
    main = tmp_path / "main.hip"
    main.write_text('#include "value.h"\n#include <cstdio>\n'
                    'int main() { printf("%d\\n", VALUE); return 0; }\n')
    for value in (1, 2):
        header.write_text(f"#define VALUE {value}\n")
        assert hipcc.compile(filename=main, include_dirs=[tmp_path / "inc"]).run() == 0
        assert capsys.readouterr().out == f"{value}\n"


def test_two_translation_units_and_relocatable_device_code(tmp_path, capsys, fresh_system):
    (tmp_path / "lib.hpp").write_text("#include <hip/hip_runtime.h>\n"
                                      "__device__ int square(int x);\nint host_twice(int x);\n")
    (tmp_path / "lib.hip").write_text('#include "lib.hpp"\n'
                                      "__device__ int square(int x) { return x * x; }\n"
                                      "int host_twice(int x) { return 2 * x; }\n")
    (tmp_path / "main.hip").write_text(
        '#include "lib.hpp"\n#include <cstdio>\n'
        "__global__ void k(int* a) { a[threadIdx.x] = square(threadIdx.x); }\n"
        "int main() { int* d; int h[4]; hipMalloc(&d, sizeof(h)); k<<<1, 4>>>(d);\n"
        "  hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);\n"
        '  printf("%d %d\\n", h[3], host_twice(h[2])); return 0; }\n')
    mod = hipcc.compile(filename=tmp_path / "main.hip", units=[tmp_path / "lib.hip"])
    assert mod.run() == 0
    assert capsys.readouterr().out == "9 8\n"


def test_device_pass_macros_choose_the_kernel_code(capsys, fresh_system):
    mod = _compile("""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    __global__ void which(int* out) {
    #if defined(__gfx942__) && __HIP_DEVICE_COMPILE__
      out[0] = 942;
    #else
      out[0] = -1;
    #endif
    }
    int main() {
    #if defined(__HIP_DEVICE_COMPILE__)
      return 99;  // the host pass never sees the device pass's macro
    #endif
      int* d; int h; hipMalloc(&d, 4); which<<<1, 1>>>(d);
      hipMemcpy(&h, d, 4, hipMemcpyDeviceToHost); printf("%d\\n", h); return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "942\n"


def _hipcc(*args, cwd):
    return subprocess.run([sys.executable, "-m", "gpusim.hipcc", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, check=False)


def test_the_command_builds_an_executable_and_code_objects_for_module_load(tmp_path):
    (tmp_path / "kernels.hip").write_text(
        '#include <hip/hip_runtime.h>\n__device__ float bias = 0.5f;\n'
        'extern "C" __global__ void addb(float* a) { a[threadIdx.x] += bias + 1; }\n')
    (tmp_path / "main.hip").write_text(r"""
#include <hip/hip_runtime.h>
#include <iostream>
int main(int argc, char** argv) {
  hipModule_t m; hipFunction_t f; float h[4] = {0, 1, 2, 3}; float* d; size_t n;
  float* bias; float two = 2;
  if (hipModuleLoad(&m, "kernels.co") != hipSuccess) return 10;
  hipModuleGetFunction(&f, m, "addb");
  hipModuleGetGlobal((hipDeviceptr_t*)&bias, &n, m, "bias");
  hipMemcpyHtoD(bias, &two, n);
  hipMalloc(&d, sizeof(h)); hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice);
  void* args[] = {&d};
  hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr);
  hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
  std::cout << h[3] << " " << argv[1] << std::endl;
  return argc;
}""")
    assert _hipcc("--genco", "kernels.hip", "-o", "kernels.co", cwd=tmp_path).returncode == 0
    assert _hipcc("main.hip", "-O3", "--offload-arch=gfx942", "-o", "app",
                  cwd=tmp_path).returncode == 0
    done = subprocess.run(["./app", "hello"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stdout) == (2, "6 hello\n")
    done = _hipcc("--run", "main.hip", "--", "x", "y", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (3, "6 x\n")


def test_a_compile_error_is_the_compilers_message_and_status_1(tmp_path):
    (tmp_path / "bad.hip").write_text("int main() { return undefined_name; }\n")
    done = _hipcc("bad.hip", "-o", "app", cwd=tmp_path)
    assert done.returncode == 1
    assert "bad.hip:1:21: error: use of undeclared identifier 'undefined_name'" in done.stderr
    assert not (tmp_path / "app").exists()


def test_hiprtc_compiles_a_kernel_string_with_in_memory_headers(capsys, fresh_system):
    mod = _compile(r"""
    #include <hip/hip_runtime.h>
    #include <hip/hiprtc.h>
    #include <cstdio>
    #include <vector>
    static const char* src = "#include \"t.h\"\n"
        "extern \"C\" __global__ void k(real* a) { a[threadIdx.x] = 2 * threadIdx.x; }\n";
    int main() {
      const char* names[] = {"t.h"}; const char* texts[] = {"typedef float real;\n"};
      hiprtcProgram p;
      hiprtcCreateProgram(&p, src, "k.hip", 1, texts, names);
      if (hiprtcCompileProgram(p, 0, nullptr) != HIPRTC_SUCCESS) return 1;
      size_t n; hiprtcGetCodeSize(p, &n); std::vector<char> code(n); hiprtcGetCode(p, code.data());
      hiprtcDestroyProgram(&p);
      hipModule_t m; hipFunction_t f; hipModuleLoadData(&m, code.data());
      hipModuleGetFunction(&f, m, "k");
      float* d; float h[4]; hipMalloc(&d, sizeof(h));
      void* args[] = {&d};
      hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr);
      hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
      printf("%g\n", h[3]);
      hiprtcCreateProgram(&p, "__global__ void bad() { nope; }", "bad.hip", 0, 0, 0);
      int failed = hiprtcCompileProgram(p, 0, nullptr);
      hiprtcGetProgramLogSize(p, &n); std::vector<char> log(n); hiprtcGetProgramLog(p, log.data());
      printf("%d %s\n", failed, strstr(log.data(), "undeclared identifier 'nope'") ? "log" : "-");
      return 0;
    }""")
    assert mod.run() == 0
    assert capsys.readouterr().out == "6\n6 log\n"


def test_every_function_the_header_declares_is_implemented():
    missing = [d.name for d in shim.declarations() if not hasattr(hostapi, d.name)]
    assert missing == []


@pytest.mark.parametrize("pretty, name", [
    ("void vector_add(const float *, const float *, float *, int)", "vector_add"),
    ("void ns::k(int *)", "ns::k"),
    ("void scale(T *, T) [T = double]", "scale<double>"),
    ("void tile(float *) [T = float, N = 16U, B = false]", "tile<float, 16, 0>"),
    ("void f(T) [T = std::pair<int, long>]", "f<std::pair<int, long>>"),
])
def test_a_stubs_pretty_function_names_the_kernel_instance(pretty, name):
    assert kernel_name(pretty) == name


def test_sanitizer_findings_are_told_in_the_cpp(capsys, fresh_system, monkeypatch):
    import gpusim

    monkeypatch.setattr(gpusim.config, "check", True)
    mod = _compile("""
    #include <hip/hip_runtime.h>
    __global__ void race(float* out) {
      __shared__ float s[64];
      s[threadIdx.x] = threadIdx.x;
      out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
    }
    int main() { float* d; hipMalloc(&d, 256); race<<<1, 64>>>(d); hipDeviceSynchronize(); }
    """)
    assert mod.run() == 134
    err = capsys.readouterr().err
    assert "read at hip_cell.hip:6 by threadIdx=(0, 0, 0):  out[threadIdx.x] = " \
           "s[(threadIdx.x + 1) % 64];" in err
    assert "write at hip_cell.hip:5" in err and "__syncthreads()" in err
    assert "hip." not in err and ".py" not in err
