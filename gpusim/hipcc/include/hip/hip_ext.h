// gpusim's <hip/hip_ext.h>: AMD's extensions to the HIP API. gpusim models none of them
// beyond what <hip/hip_runtime.h> declares; programs that only include it build.
#pragma once
#include <hip/hip_runtime.h>
