// gpusim: ROCm declares these types in <hip/driver_types.h>; gpusim, in texture_types.h.
#pragma once
#include <hip/hip_runtime_api.h>
