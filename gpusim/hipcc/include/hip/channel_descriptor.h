// gpusim: ROCm declares hipCreateChannelDesc in <hip/channel_descriptor.h>; gpusim, in
// texture_types.h.
#pragma once
#include <hip/hip_runtime_api.h>
