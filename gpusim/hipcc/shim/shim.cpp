// gpusim's HIP runtime shim, compiled into every HIP program gpusim.hipcc builds.
//
// The hip* functions of <hip/hip_runtime_api.h> forward to gpusim's runtime in Python
// through __gpusim_api, a table of function pointers that gpusim fills when it loads the
// program (the forwarding functions are generated from the header: gpusim/hipcc/shim.py).
// This file holds what must be C++: the launch configuration that `k<<<...>>>` pushes and
// the kernel's stub pops, and the program's exit: exit(), abort() and a failed assert()
// end main() and return its status to gpusim, instead of ending the notebook's process.
#include <hip/hip_runtime.h>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
struct Config { dim3 grid, block; size_t shared; hipStream_t stream; bool query; };
thread_local std::vector<Config> configs;
thread_local const char* queried = nullptr;  // the name a stub reported (query mode)
std::jmp_buf exit_jump;
int exit_status = 0;
bool running = false;

[[noreturn]] void leave(int status) {
  fflush(nullptr);
  exit_status = status;
  std::longjmp(exit_jump, 1);
}
}  // namespace

extern "C" {
// Set by gpusim when a call meets a fault a GPU program does not survive (a memory access
// fault in a kernel): the process of a real program is killed, here main() ends.
int __gpusim_fatal = 0;

int __gpusim_configure(dim3 grid, dim3 block, size_t shared, hipStream_t stream) {
  configs.push_back({grid, block, shared, stream, false});
  return 0;
}

hipError_t __gpusim_launch_stub(const char* kernel, void** args) {
  if (configs.empty()) return hipErrorMissingConfiguration;
  Config c = configs.back();
  configs.pop_back();
  if (c.query) {
    queried = kernel;
    return hipSuccess;
  }
  return __gpusim_launch(kernel, nullptr, args, &c.grid, &c.block, c.shared, c.stream);
}

// The __PRETTY_FUNCTION__ of the kernel whose host stub is at `stub` (a template kernel's
// instance is not registered by address): the stub is called under a configuration that
// makes it report its name instead of launching. A stub only takes its parameters'
// addresses, never reads them, so it is called without arguments. gpusim calls this only
// for the address of a function whose symbol names one of the program's kernels.
const char* __gpusim_kernel_name(const void* stub) {
  queried = nullptr;
  configs.push_back({dim3(), dim3(), 0, nullptr, true});
  reinterpret_cast<void (*)()>(const_cast<void*>(stub))();
  if (queried == nullptr) configs.pop_back();  // it was no stub
  return queried;
}

void __gpusim_check_fatal(void) {
  if (__gpusim_fatal && running) leave(134);  // 128 + SIGABRT, as a shell reports it
}

void exit(int status) noexcept {
  if (!running) std::_Exit(status);
  leave(status);
}

void abort(void) noexcept {
  fputs("Aborted\n", stderr);
  if (!running) std::_Exit(134);
  leave(134);
}

void __assert_fail(const char* assertion, const char* file, unsigned int line,
                   const char* function) noexcept {
  fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
  abort();
}

}  // extern "C"

// The program's own main, as `int main()` or `int main(int, char**)`: both are called
// with (argc, argv) by the C calling convention, as the C runtime calls them. gpusim calls
// __gpusim_run only for a program that defines main.
int main(int argc, char** argv);

extern "C" {
// Run the program's main(argc, argv); returns its exit status (exit() included).
int __gpusim_run(int argc, char** argv) {
  running = true;
  __gpusim_fatal = 0;
  configs.clear();
  int status;
  if (setjmp(exit_jump) == 0) {
    status = main(argc, argv);
    fflush(nullptr);
  } else {
    status = exit_status;
  }
  running = false;
  return status;
}
}  // extern "C"
