"""Texture sampling in gpusim's kernel language: what ``tex1Dfetch``, ``tex1D``,
``tex2D``, ``tex3D``, ``tex1DLayered`` and ``tex2DLayered`` of a
translated HIP kernel call (gpusim/hipcc/textures.py writes the calls).

A texture object reaches a kernel as two arrays: its texels (the channel type, channels
interleaved, rows ``PITCH`` texels apart) and a float64 descriptor (the slots below,
filled by ``textures.TextureObject``). These are ``@hip.jit(device=True)`` functions, so
they are inlined and compiled with the kernel like the program's own device functions,
and the constant argument ``dims`` prunes the branches a call does not need.

Sampling follows the "Texture Fetching" appendix of the CUDA programming guide, which
HIP's texture functions share (and hip-tests' host reference, catch/unit/texture/
texture_reference.hh at ROCm/hip-tests 87c8a04, models AMD's hardware the same way):

- normalized coordinates are scaled by the size first (``x * width``);
- nearest-point sampling reads texel ``floor(x)``;
- linear filtering reads texels ``i = floor(xB)`` and ``i + 1``, ``xB = x - 0.5``, with
  weight ``alpha = frac(xB)`` held in fixed point with 8 fractional bits (the guide's
  9-bit format), so ``xB`` is rounded to a multiple of 1/256 (half away from zero);
- the address mode is applied to every texel index, per coordinate: clamp to
  ``[0, n - 1]``, border (the border colour outside), wrap (modulo ``n``) and mirror
  (reflected every ``n``). As the guide says, wrap and mirror need normalized
  coordinates; with unnormalized coordinates they clamp.

>>> SLOTS["PITCH"], len(SLOTS)
(4, 21)
"""

from __future__ import annotations

import math

import numpy as np

from gpusim import hip

# The descriptor's slots (float64; sizes and strides in texels).
SLOTS = {name: k for k, name in enumerate((
    "WIDTH", "HEIGHT", "DEPTH", "LAYERS", "PITCH", "SLICE", "LAYER_STRIDE", "CHANNELS",
    "ADDRESS_X", "ADDRESS_Y", "ADDRESS_Z", "FILTER", "READ_NORMALIZED", "NORMALIZED_COORDS",
    "SCALE", "SIGNED", "BORDER_R", "BORDER_G", "BORDER_B", "BORDER_A", "LINEAR"))}
WRAP, CLAMP, MIRROR, BORDER = 0, 1, 2, 3  # hipTextureAddressMode


@hip.jit(device=True)
def gpusim_tex_address(i, n, mode, normalized):
    """The texel index ``i`` of an axis of ``n`` texels after the address mode; -1
    outside a border-mode texture (the border colour). One number, not a tuple: the
    kernel language keeps only numbers across the loops of linear filtering."""
    if mode == 3:  # border
        return i if i >= 0 and i < n else -1
    if normalized and mode == 0:  # wrap
        return i % n
    if normalized and mode == 2:  # mirror: period 2n, the second half reversed
        m = i % (2 * n)
        if m >= n:
            m = 2 * n - 1 - m
        return m
    return min(max(i, 0), n - 1)


@hip.jit(device=True)
def gpusim_tex_layer(desc, layer):
    """The first texel of layer ``layer`` (clamped to the layers there are)."""
    last = int(desc[3]) - 1
    return min(max(int(layer), 0), max(last, 0)) * int(desc[6])


@hip.jit(device=True)
def gpusim_tex_scale(desc, v, axis):
    """Coordinate ``v`` of axis ``axis`` in texels: a normalized one times the size."""
    f = np.float32(v)
    if desc[13] != 0:
        f = f * np.float32(desc[axis])
    return f


@hip.jit(device=True)
def gpusim_tex_index(desc, x, y, z, layer, dims):
    """Nearest-point sampling: the texel that ``(x, y, z)`` of layer ``layer`` reads, or
    -1 where the border colour is read."""
    normalized = desc[13] != 0
    i = gpusim_tex_address(int(math.floor(gpusim_tex_scale(desc, x, 0))),
                           int(desc[0]), int(desc[8 + 0]), normalized)
    j = 0
    k = 0
    if dims >= 2:
        j = gpusim_tex_address(int(math.floor(gpusim_tex_scale(desc, y, 1))),
                               int(desc[1]), int(desc[8 + 1]), normalized)
    if dims >= 3:
        k = gpusim_tex_address(int(math.floor(gpusim_tex_scale(desc, z, 2))),
                               int(desc[2]), int(desc[8 + 2]), normalized)
    if i < 0 or j < 0 or k < 0:
        return -1
    return gpusim_tex_layer(desc, layer) + k * int(desc[5]) + j * int(desc[4]) + i


@hip.jit(device=True)
def gpusim_tex_fetch_index(desc, i):
    """``tex1Dfetch``: texel ``i`` of linear memory (clamp or border, no filtering)."""
    return gpusim_tex_address(int(i), int(desc[0]), int(desc[8]), False)


@hip.jit(device=True)
def gpusim_tex_raw(data, desc, at, c):
    """Channel ``c`` of texel ``at`` as stored (read mode element type); a border texel
    and a channel the format lacks read 0 (alpha: 1)."""
    if at < 0 or c >= int(desc[7]):
        return 1 if c == 3 and at >= 0 else 0
    return data[at * int(desc[7]) + c]


@hip.jit(device=True)
def gpusim_tex_value(data, desc, at, c):
    """Channel ``c`` of texel ``at`` as a float: normalized (``hipReadModeNormalizedFloat``:
    unsigned / (2**bits - 1), signed / (2**(bits-1) - 1) no lower than -1), or converted;
    a border texel reads the border colour, a missing channel 0 (alpha: 1)."""
    if at < 0:
        return np.float32(desc[16 + c])
    if c >= int(desc[7]):
        return np.float32(1.0) if c == 3 else np.float32(0.0)
    v = np.float32(data[at * int(desc[7]) + c])
    if desc[12] != 0:
        v = v * np.float32(desc[14])
        if desc[15] != 0 and v < np.float32(-1.0):
            v = np.float32(-1.0)
    return v


@hip.jit(device=True)
def gpusim_tex_frac8(v):
    """``v`` rounded to a multiple of 1/256 (the filter weights' 8 fractional bits):
    its fraction rounded half away from zero."""
    t = np.float32(math.trunc(v))
    f = (v - t) * np.float32(256.0)
    r = math.floor(f + np.float32(0.5)) if f >= 0 else -math.floor(np.float32(0.5) - f)
    return t + np.float32(r) / np.float32(256.0)


@hip.jit(device=True)
def gpusim_tex_linear(data, desc, x, y, z, layer, dims, c):
    """Linear filtering (2, 4 or 8 texels by ``dims``) of channel ``c``, in float32."""
    normalized = desc[13] != 0
    one = np.float32(1.0)
    half = np.float32(0.5)
    bx = gpusim_tex_frac8(gpusim_tex_scale(desc, x, 0) - half)
    i0 = math.floor(bx)
    alpha = bx - np.float32(i0)
    j0 = 0
    beta = np.float32(0.0)
    k0 = 0
    gamma = np.float32(0.0)
    if dims >= 2:
        by = gpusim_tex_frac8(gpusim_tex_scale(desc, y, 1) - half)
        j0 = math.floor(by)
        beta = by - np.float32(j0)
    if dims >= 3:
        bz = gpusim_tex_frac8(gpusim_tex_scale(desc, z, 2) - half)
        k0 = math.floor(bz)
        gamma = bz - np.float32(k0)
    base = gpusim_tex_layer(desc, layer)
    total = np.float32(0.0)
    for dk in range(2 if dims >= 3 else 1):
        wz = one
        k = 0
        if dims >= 3:
            wz = gamma if dk == 1 else one - gamma
            k = gpusim_tex_address(k0 + dk, int(desc[2]), int(desc[8 + 2]),
                                   normalized)
        for dj in range(2 if dims >= 2 else 1):
            wy = one
            j = 0
            if dims >= 2:
                wy = beta if dj == 1 else one - beta
                j = gpusim_tex_address(j0 + dj, int(desc[1]),
                                       int(desc[8 + 1]), normalized)
            for di in range(2):
                wx = alpha if di == 1 else one - alpha
                i = gpusim_tex_address(i0 + di, int(desc[0]), int(desc[8 + 0]),
                                       normalized)
                at = -1
                if i >= 0 and j >= 0 and k >= 0:
                    at = base + k * int(desc[5]) + j * int(desc[4]) + i
                total += wx * wy * wz * gpusim_tex_value(data, desc, at, c)
    return total


@hip.jit(device=True)
def gpusim_tex_sample(data, desc, x, y, z, layer, dims, c):
    """A float-returning fetch (``tex2D<float>``, a normalized-float read): the
    texture's filter mode decides nearest-point or linear."""
    if desc[11] != 0:
        return gpusim_tex_linear(data, desc, x, y, z, layer, dims, c)
    at = gpusim_tex_index(desc, x, y, z, layer, dims)
    return gpusim_tex_value(data, desc, at, c)


__all__ = ["SLOTS", "gpusim_tex_fetch_index",
           "gpusim_tex_index", "gpusim_tex_linear", "gpusim_tex_raw", "gpusim_tex_sample",
           "gpusim_tex_value"]
