"""HIP texture objects in gpusim: arrays (``hipMallocArray``, ``hipMalloc3DArray``), the
copies into and out of them, ``hipCreateTextureObject``, and the translation of
``tex1Dfetch`` / ``tex1D`` / ``tex2D`` / ``tex3D`` / ``tex1DLayered`` / ``tex2DLayered`` /
``texCubemap`` calls in kernels.

Signatures, struct layouts and enum values are ROCm's (ROCm/HIP include/hip/
driver_types.h, texture_types.h, hip_runtime_api.h at c5e11fc; gpusim's copies are in
include/hip/texture_types.h). What gpusim does with them:

- an array is device memory holding its texels in a row (width x height x depth x
  layers, channels interleaved), behind an opaque handle;
- a texture object (``TextureObject``) is that memory, or the program's own for linear
  and pitch-2D resources, plus a small float64 descriptor in device memory: sizes,
  strides, channels, address and filter modes, read mode, border colour
  (``texfetch.SLOTS``);
- a kernel's ``hipTextureObject_t`` parameter ``tex`` becomes two parameters of the
  translated kernel, ``tex`` (the texels) and ``tex_d`` (the descriptor); the launch
  passes the object's arrays (``kernel_values``);
- ``tex2D<float>(tex, x, y)`` becomes a call of the kernel-language device functions in
  ``texfetch`` (inlined and compiled with the kernel, as the program's own device
  functions are): ``gpusim_tex_sample(tex, tex_d, x, y, 0.0, 0, 2, 0)``.

>>> TEXTURE_CALLS["tex2DLayered"]  # (dimensions, layered)
(2, True)
>>> channel_dtype({"x": 8, "y": 8, "z": 8, "w": 8, "f": 1}, "hipMallocArray")
(dtype('uint8'), 4)
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpusim import hip
from gpusim.errors import HipError, hipError_t
from gpusim.hipcc.texfetch import SLOTS


def _host():
    """gpusim.hipcc.hostapi, imported when first needed: it imports this module's API
    (and the translator imports this module before any host call is made)."""
    from gpusim.hipcc import hostapi

    return hostapi

E = hipError_t
ARRAY_LAYERED, ARRAY_SURFACE, ARRAY_CUBEMAP, ARRAY_GATHER = 0x01, 0x02, 0x04, 0x08
RESOURCE_ARRAY, RESOURCE_MIPMAPPED, RESOURCE_LINEAR, RESOURCE_PITCH2D = 0, 1, 2, 3
_KINDS = {0: "i", 1: "u", 2: "f"}  # hipChannelFormatKind -> NumPy kind


# ---- arrays
def channel_dtype(desc: dict, api: str) -> tuple[np.dtype, int]:
    """(channel dtype, channel count) of a hipChannelFormatDesc (``x``..``w`` bits, ``f``
    kind); the formats HIP accepts: 1, 2 or 4 channels of one size, 8/16/32-bit integers
    or 32-bit float (16-bit float, HIP_AD_FORMAT_HALF, is not modelled: a clear error)."""
    bits = [int(desc[c]) for c in "xyzw"]
    channels = sum(1 for b in bits if b)
    kind = _KINDS.get(int(desc["f"]))
    size = bits[0]
    if channels not in (1, 2, 4) or any(b not in (0, size) for b in bits) or \
            bits[:channels] != [size] * channels or kind is None or \
            size not in ((16, 32) if kind == "f" else (8, 16, 32)):
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: channel format {bits} of kind {desc['f']} is not one HIP "
                       "supports (1, 2 or 4 channels of 8, 16 or 32 bits; float: 16 or 32)")
    if kind == "f" and size == 16:
        raise HipError(E.hipErrorNotSupported,
                       f"{api}: 16-bit float (half) textures are not modelled by gpusim; "
                       "use 32-bit float channels")
    return np.dtype(f"{kind}{size // 8}"), channels


@dataclass
class HipArray:
    """A hipArray_t: ``width`` x ``height`` x ``depth`` texels (``depth`` layers when
    layered), channels of ``dtype``, in device memory at
    ``pointer``."""

    desc: dict
    dtype: np.dtype
    channels: int
    width: int
    height: int
    depth: int
    flags: int
    pointer: Any = None
    freed: bool = False

    @property
    def texel_bytes(self) -> int:
        return self.dtype.itemsize * self.channels

    @property
    def row_bytes(self) -> int:
        return self.width * self.texel_bytes

    @property
    def nbytes(self) -> int:
        return self.row_bytes * max(self.height, 1) * max(self.depth, 1)

    @property
    def address(self) -> int:
        if self.freed:
            raise HipError(E.hipErrorInvalidValue, "the hipArray was freed (hipFreeArray)")
        return int(self.pointer)


def _array(handle: int, api: str) -> HipArray:
    found = _host().HANDLES.objects.get(int(handle or 0))
    if not isinstance(found, HipArray) or found.freed:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: {int(handle or 0):#x} is not a hipArray_t (freed with "
                       "hipFreeArray, or never allocated with hipMallocArray/hipMalloc3DArray)")
    return found


def _new_array(array: int, desc_address: int, width: int, height: int, depth: int,
               flags: int, api: str) -> None:
    from gpusim.hipcc.shim import read_struct

    if not array or not desc_address:
        raise HipError(E.hipErrorInvalidValue, f"{api}: array or desc is NULL")
    desc = read_struct("hipChannelFormatDesc", desc_address)
    dtype, channels = channel_dtype(desc, api)
    if flags & ARRAY_CUBEMAP:  # ROCm/clr f9f995c hip_memory.cpp, ihipArrayCreate
        raise HipError(E.hipErrorInvalidValue, f"{api}: hipArrayCubemap: ROCm allocates no "
                       "cubemap arrays (its runtime refuses the flag), so texCubemap has "
                       "nothing to sample; store the six faces as a layered array")
    known = ARRAY_LAYERED | ARRAY_SURFACE | ARRAY_GATHER
    if flags & ~known or width == 0:
        raise HipError(E.hipErrorInvalidValue, f"{api}: flags {flags:#x} or width 0")
    arr = HipArray(desc, dtype, channels, int(width), int(height), int(depth), int(flags))
    arr.pointer = hip.hipMalloc(max(arr.nbytes, 1))
    _host()._put(array, ctypes.c_void_p, _host().HANDLES.new(arr))


def hipMallocArray(array, desc, width, height, flags):
    """A 1D (``height`` 0) or 2D array of texels of the channel format ``desc``.

    >>> import ctypes
    >>> desc = (ctypes.c_int * 5)(32, 0, 0, 0, 2)  # hipChannelFormatDesc: one float
    >>> arr = ctypes.c_void_p()
    >>> hipMallocArray(ctypes.addressof(arr), ctypes.addressof(desc), 4, 2, 0)
    >>> _array(arr.value, "example").nbytes, hipFreeArray(arr.value)
    (32, None)
    """
    _new_array(array, desc, int(width), int(height), 0, int(flags), "hipMallocArray")


def hipMalloc3DArray(array, desc, extent, flags):
    """A 3D array, or with ``hipArrayLayered`` ``extent.depth`` layers of 1D/2D
    (``extent`` is passed by value: its address); ``hipArrayCubemap`` is refused, as
    ROCm refuses it."""
    from gpusim.hipcc.shim import read_struct

    e = read_struct("hipExtent", extent)
    _new_array(array, desc, int(e["width"]), int(e["height"]), int(e["depth"]), int(flags),
               "hipMalloc3DArray")


def hipFreeArray(array):
    arr = _array(array, "hipFreeArray")
    hip.hipFree(arr.pointer)
    arr.freed = True
    _host().HANDLES.drop(array)


def hipGetChannelDesc(desc, array):
    from gpusim.hipcc.shim import write_struct

    write_struct("hipChannelFormatDesc", desc, _array(array, "hipGetChannelDesc").desc)


def hipArrayGetInfo(desc, extent, flags, array):
    from gpusim.hipcc.shim import write_struct

    arr = _array(array, "hipArrayGetInfo")
    if desc:
        write_struct("hipChannelFormatDesc", desc, arr.desc)
    if extent:
        write_struct("hipExtent", extent, {"width": arr.width, "height": arr.height,
                                           "depth": arr.depth})
    if flags:
        _host()._put(flags, ctypes.c_uint, arr.flags)


# ---- copies: row by row through hipMemcpy (which knows host from device memory)
def _copy(dst: int, src: int, n: int, kind: int, api: str) -> None:
    if n:
        _host().hipMemcpy(dst, src, n, kind)


def _rows(dst: int, dpitch: int, src: int, spitch: int, width: int, height: int,
          kind: int, api: str) -> None:
    if dpitch == spitch == width:  # one block
        _copy(dst, src, width * height, kind, api)
        return
    for r in range(int(height)):
        _copy(dst + r * dpitch, src + r * spitch, width, kind, api)


def _array_span(arr: HipArray, offset: int, nbytes: int, api: str) -> None:
    if offset < 0 or offset + nbytes > arr.nbytes:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: bytes [{offset}, {offset + nbytes}) are outside the array "
                       f"({arr.nbytes} bytes)")


def hipMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind):
    """Rows of ``width`` bytes from ``src`` (``spitch`` apart) into the array at column
    byte ``wOffset``, row ``hOffset``."""
    arr = _array(dst, "hipMemcpy2DToArray")
    start = int(hOffset) * arr.row_bytes + int(wOffset)
    if int(width) + int(wOffset) > arr.row_bytes or int(spitch) < int(width):
        raise HipError(E.hipErrorInvalidPitchValue if int(spitch) < int(width)
                       else E.hipErrorInvalidValue,
                       "hipMemcpy2DToArray: width plus wOffset exceeds the array's row, or "
                       "spitch < width")
    _array_span(arr, start, (int(height) - 1) * arr.row_bytes + int(width),
                "hipMemcpy2DToArray")
    _rows(arr.address + start, arr.row_bytes, src, int(spitch), int(width), int(height),
          kind, "hipMemcpy2DToArray")


def hipMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind):
    arr = _array(src, "hipMemcpy2DFromArray")
    start = int(hOffset) * arr.row_bytes + int(wOffset)
    _array_span(arr, start, (int(height) - 1) * arr.row_bytes + int(width),
                "hipMemcpy2DFromArray")
    _rows(dst, int(dpitch), arr.address + start, arr.row_bytes, int(width), int(height),
          kind, "hipMemcpy2DFromArray")


def hipMemcpyToArray(dst, wOffset, hOffset, src, count, kind):
    """``count`` bytes from ``src`` into the array from row ``hOffset``, byte
    ``wOffset`` on (deprecated in HIP, as in CUDA, but still exported)."""
    arr = _array(dst, "hipMemcpyToArray")
    start = int(hOffset) * arr.row_bytes + int(wOffset)
    _array_span(arr, start, int(count), "hipMemcpyToArray")
    _copy(arr.address + start, src, int(count), kind, "hipMemcpyToArray")


def hipMemcpyFromArray(dst, srcArray, wOffset, hOffset, count, kind):
    arr = _array(srcArray, "hipMemcpyFromArray")
    start = int(hOffset) * arr.row_bytes + int(wOffset)
    _array_span(arr, start, int(count), "hipMemcpyFromArray")
    _copy(dst, arr.address + start, int(count), kind, "hipMemcpyFromArray")


def hipMemcpy3D(p):
    """A box of ``extent`` between arrays and pitched pointers. With an array on either
    side ``extent.width`` and the array's position count texels; between two pitched
    pointers, bytes (ROCm's and CUDA's rule)."""
    from gpusim.hipcc.shim import read_struct

    if not p:
        raise HipError(E.hipErrorInvalidValue, "hipMemcpy3D: p is NULL")
    q = read_struct("hipMemcpy3DParms", p)
    arrays = [_array(q[f"{s}Array"], "hipMemcpy3D") if q[f"{s}Array"] else None
              for s in ("src", "dst")]
    if all(a is None for a in arrays) and not (q["srcPtr.ptr"] and q["dstPtr.ptr"]):
        raise HipError(E.hipErrorInvalidValue, "hipMemcpy3D: needs a source and a "
                       "destination (srcArray or srcPtr, dstArray or dstPtr)")
    unit = next((a.texel_bytes for a in arrays if a is not None), 1)
    width = int(q["extent.width"]) * unit
    height, depth = max(int(q["extent.height"]), 1), max(int(q["extent.depth"]), 1)

    def side(s: str, arr: HipArray | None) -> tuple[int, int, int]:
        """(address of the box's first byte, row pitch, slice pitch) of one side."""
        x, y, z = (int(q[f"{s}Pos.{a}"]) for a in "xyz")
        if arr is not None:
            rows = max(arr.height, 1)
            _array_span(arr, (z * rows + y) * arr.row_bytes + x * arr.texel_bytes,
                        ((depth - 1) * rows + height - 1) * arr.row_bytes + width,
                        "hipMemcpy3D")
            return (arr.address + (z * rows + y) * arr.row_bytes + x * arr.texel_bytes,
                    arr.row_bytes, arr.row_bytes * rows)
        pitch, ysize = int(q[f"{s}Ptr.pitch"]), max(int(q[f"{s}Ptr.ysize"]), 1)
        return int(q[f"{s}Ptr.ptr"]) + (z * ysize + y) * pitch + x, pitch, pitch * ysize

    (src, sp, ss), (dst, dp, ds) = side("src", arrays[0]), side("dst", arrays[1])
    kind = int(q["kind"])
    if sp == dp == width and ss == ds == width * height:
        _copy(dst, src, width * height * depth, kind, "hipMemcpy3D")
        return
    for z in range(depth):
        _rows(dst + z * ds, dp, src + z * ss, sp, width, height, kind, "hipMemcpy3D")


def hipMemset2D(dst, pitch, value, width, height):
    for r in range(int(height)):
        _host().hipMemset(dst + r * int(pitch), value, width)


# ---- texture objects
@dataclass
class TextureObject:
    """What a hipTextureObject_t names: the texels (``data``, a DeviceArray of the
    channel type), the descriptor (``desc``, float64 in device memory, ``texfetch``'s
    slots), and the descriptors it was made from (for hipGetTextureObject*Desc)."""

    data: Any
    desc: Any
    resource: dict = field(default_factory=dict)
    texture: dict = field(default_factory=dict)


def _read_texture_desc(address: int) -> dict:
    """hipTextureDesc by field; its arrays (addressMode, borderColor) as lists."""
    from gpusim.hipcc.shim import _layout, read_struct

    values = read_struct("hipTextureDesc", address)
    for name, (off, ctype, count) in _layout("hipTextureDesc").items():
        if count:
            values[name] = list((ctype * count).from_address(address + off))
    return values


_NORMALIZED_READ = {"u1": 1 / 255, "u2": 1 / 65535, "i1": 1 / 127, "i2": 1 / 32767}


def texture_descriptor(width: int, height: int, depth: int, layers: int, pitch: int,
                       channels: int, dtype: np.dtype, tex: dict, linear: bool = False
                       ) -> np.ndarray:
    """The descriptor a kernel reads (``texfetch.SLOTS``), from the resource's shape (in
    texels; ``pitch`` texels per row) and a hipTextureDesc's fields.

    >>> d = texture_descriptor(4, 3, 1, 1, 4, 1, np.dtype("float32"),
    ...                        {"addressMode": [1, 1, 1], "filterMode": 1, "readMode": 0,
    ...                         "normalizedCoords": 0, "borderColor": [0, 0, 0, 0]})
    >>> d[SLOTS["SLICE"]], d[SLOTS["FILTER"]]
    (np.float64(12.0), np.float64(1.0))
    """
    d = np.zeros(len(SLOTS), np.float64)
    slice_ = pitch * max(height, 1)
    values = {"WIDTH": width, "HEIGHT": max(height, 1), "DEPTH": max(depth, 1),
              "LAYERS": max(layers, 1), "PITCH": pitch, "SLICE": slice_,
              "LAYER_STRIDE": slice_ * max(depth, 1), "CHANNELS": channels,
              "ADDRESS_X": tex["addressMode"][0], "ADDRESS_Y": tex["addressMode"][1],
              "ADDRESS_Z": tex["addressMode"][2], "FILTER": tex["filterMode"],
              "READ_NORMALIZED": tex["readMode"],
              "NORMALIZED_COORDS": 1 if tex["normalizedCoords"] else 0,
              "SCALE": _NORMALIZED_READ.get(dtype.str[1:], 1.0),
              "SIGNED": 1 if dtype.kind == "i" else 0, "LINEAR": 1 if linear else 0}
    for k, c in enumerate("RGBA"):
        values[f"BORDER_{c}"] = tex["borderColor"][k]
    for name, value in values.items():
        d[SLOTS[name]] = value
    return d


def hipCreateTextureObject(pTexObject, pResDesc, pTexDesc, pResViewDesc):
    """A texture object over an array, linear memory or pitched 2D memory, sampled as
    ``pTexDesc`` says. As ROCm's: a NULL argument, an unknown resource type, a pitch that
    is not a whole number of texels or a normalized-float read of 32-bit integers is
    hipErrorInvalidValue; mipmapped arrays and resource views are not modelled."""
    from gpusim.hipcc.shim import read_struct

    api = "hipCreateTextureObject"
    if not pTexObject or not pResDesc or not pTexDesc:
        raise HipError(E.hipErrorInvalidValue, f"{api}: pTexObject, pResDesc or pTexDesc is "
                       "NULL")
    if pResViewDesc:
        raise HipError(E.hipErrorNotSupported, f"{api}: resource views (pResViewDesc) are "
                       "not modelled by gpusim; pass nullptr")
    res = read_struct("hipResourceDesc", pResDesc)
    tex = _read_texture_desc(pTexDesc)
    kind = int(res["resType"])
    layers, depth = 1, 1
    if kind == RESOURCE_ARRAY:
        arr = _array(res["res.array.array"], api)
        dtype, channels = arr.dtype, arr.channels
        width, height = arr.width, max(arr.height, 1)
        if arr.flags & ARRAY_LAYERED:
            layers = max(arr.depth, 1)
        else:
            depth = max(arr.depth, 1)
        pitch, address, nbytes = width, arr.address, arr.nbytes
    elif kind in (RESOURCE_LINEAR, RESOURCE_PITCH2D):
        part = "linear" if kind == RESOURCE_LINEAR else "pitch2D"
        desc = {c: res[f"res.{part}.desc.{c}"] for c in "xyzwf"}
        dtype, channels = channel_dtype(desc, api)
        address = res[f"res.{part}.devPtr"] or 0
        texel = dtype.itemsize * channels
        if kind == RESOURCE_LINEAR:
            width, height = int(res["res.linear.sizeInBytes"]) // texel, 1
            pitch, nbytes = width, width * texel
        else:
            width, height = int(res["res.pitch2D.width"]), int(res["res.pitch2D.height"])
            row = int(res["res.pitch2D.pitchInBytes"])
            if row % texel or row < width * texel:
                raise HipError(E.hipErrorInvalidValue,
                               f"{api}: pitchInBytes {row} is not a whole number of "
                               f"{texel}-byte texels at least width ({width}) long")
            pitch, nbytes = row // texel, row * height
        if not address or not _host().is_device(address) or width == 0:
            raise HipError(E.hipErrorInvalidValue,
                           f"{api}: res.{part}.devPtr must be device memory (hipMalloc) "
                           "holding at least one texel")
    else:
        raise HipError(E.hipErrorInvalidValue if kind != RESOURCE_MIPMAPPED else
                       E.hipErrorNotSupported,
                       f"{api}: resType {kind} " + ("(mipmapped arrays) is not modelled by "
                                                   "gpusim" if kind == RESOURCE_MIPMAPPED
                                                   else "is not a hipResourceType"))
    if any(m not in (0, 1, 2, 3) for m in tex["addressMode"]) or \
            tex["filterMode"] not in (0, 1) or tex["readMode"] not in (0, 1):
        raise HipError(E.hipErrorInvalidValue, f"{api}: an address, filter or read mode "
                       "that is not one of HIP's")
    if tex["readMode"] == 1 and (dtype.kind == "f" or dtype.itemsize == 4):
        tex = {**tex, "readMode": 0}  # float texels are read as they are
    if tex["filterMode"] == 1 and dtype.kind != "f" and tex["readMode"] != 1:
        raise HipError(E.hipErrorInvalidValue,
                       f"{api}: linear filtering of {dtype} texels needs "
                       "hipReadModeNormalizedFloat (it returns floats)")
    data = hip.DeviceArray.from_pointer(address, (nbytes // dtype.itemsize,), dtype)
    desc = hip.to_device(texture_descriptor(width, height, depth, layers, pitch, channels,
                                            dtype, tex, kind == RESOURCE_LINEAR))
    obj = TextureObject(data, desc, res, tex)
    _host()._put(pTexObject, ctypes.c_void_p, _host().HANDLES.new(obj))


def texture(handle: Any, what: str) -> TextureObject:
    """The TextureObject a hipTextureObject_t names, or hipErrorInvalidValue naming
    ``what`` (the call, or the kernel argument).

    >>> texture(0x12, "kernel 'k' argument 't'")
    Traceback (most recent call last):
    ...
    gpusim.errors.HipError: ...kernel 'k' argument 't': 0x12 is not a texture object...
    """
    if isinstance(handle, TextureObject):
        return handle
    found = _host().HANDLES.objects.get(int(handle or 0))
    if not isinstance(found, TextureObject):
        raise HipError(E.hipErrorInvalidValue,
                       f"{what}: {int(handle or 0):#x} is not a texture object (destroyed "
                       "with hipDestroyTextureObject, or never created by "
                       "hipCreateTextureObject)")
    return found


def hipDestroyTextureObject(textureObject):
    if not textureObject:  # ROCm: destroying NULL is a no-op
        return
    texture(textureObject, "hipDestroyTextureObject")
    _host().HANDLES.drop(textureObject)


def hipGetTextureObjectResourceDesc(pResDesc, textureObject):
    from gpusim.hipcc.shim import write_struct

    obj = texture(textureObject, "hipGetTextureObjectResourceDesc")
    if not pResDesc:
        raise HipError(E.hipErrorInvalidValue, "hipGetTextureObjectResourceDesc: pResDesc "
                       "is NULL")
    write_struct("hipResourceDesc", pResDesc, obj.resource)


def hipGetTextureObjectTextureDesc(pTexDesc, textureObject):
    from gpusim.hipcc.shim import write_struct

    obj = texture(textureObject, "hipGetTextureObjectTextureDesc")
    if not pTexDesc:
        raise HipError(E.hipErrorInvalidValue, "hipGetTextureObjectTextureDesc: pTexDesc "
                       "is NULL")
    write_struct("hipTextureDesc", pTexDesc, obj.texture)


def kernel_values(kernel: str, name: str, arg: Any) -> list:
    """A texture argument as the translated kernel takes it: [texels, descriptor]."""
    obj = texture(arg, f"kernel '{kernel}' argument '{name}'")
    return [obj.data, obj.desc]


# ---- translation of kernels: tex*() calls and hipTextureObject_t parameters
# name -> (dimensions, layered); tex1Dfetch is apart (an integer index). texCubemap is
# declared, as HIP's header does, but refused: ROCm allocates no cubemap arrays.
TEXTURE_CALLS = {"tex1D": (1, False), "tex2D": (2, False), "tex3D": (3, False),
                 "tex1DLayered": (1, True), "tex2DLayered": (2, True)}
FETCHES = {*TEXTURE_CALLS, "tex1Dfetch"}
_ATOM = re.compile(r"[\w.]+|-?\d+(\.\d*)?")


def is_texture(t) -> bool:
    """A ``hipTextureObject_t`` (``struct __hip_texture*``), through typedefs and const."""
    from clang.cindex import TypeKind

    c = t.get_canonical()
    if c.kind != TypeKind.POINTER:
        return False
    name = c.get_pointee().get_canonical().spelling
    return name.replace("const ", "").replace("struct ", "").strip() == "__hip_texture"


def is_fetch(call) -> bool:
    """A call of one of the texture functions gpusim's <hip/hip_runtime.h> declares."""
    ref = call.referenced
    return ref is not None and ref.location.file is not None and \
        ref.location.file.name.replace("\\", "/").endswith("hip/texture_fetch_functions.h")


def parameter(tr, p, pname: str, kernel: bool) -> list[str]:
    """A hipTextureObject_t parameter: two parameters, the texels and the descriptor."""
    tr.textures[p.spelling] = (pname, pname + "_d")
    return [pname, pname + "_d"]


def argument(tr, a) -> list[str]:
    """A texture passed on to a device function: its two arrays."""
    from gpusim.hipcc.clangast import strip

    s = strip(a)
    while s.kind.name == "UNEXPOSED_EXPR" and list(s.get_children()):
        s = strip(next(iter(s.get_children())))
    if s.kind.name != "DECL_REF_EXPR" or s.spelling not in tr.textures:
        tr.fail(a, "this texture object expression",
                "a hipTextureObject_t parameter of the kernel or device function")
    return list(tr.textures[s.spelling])


def _kept(tr, text: str, line: int) -> str:
    """``text`` in a variable unless it is a name or number (it is read per channel)."""
    if _ATOM.fullmatch(text):
        return text
    tmp = tr.temp("t")
    tr.out.line(f"{tmp} = {text}", line)
    return tmp


def call(tr, c, args) -> str:
    """``tex2D<T>(obj, x, y)`` and the others: the value (a number), or for a vector ``T``
    (float4, uchar4, ...) a tuple of its fields. A float ``T`` samples (the texture's
    filter mode, read mode and address modes, ``texfetch.gpusim_tex_sample``); an
    integer ``T`` reads the nearest texel as stored."""
    from gpusim.hipcc import ctypes_map as ct

    name, line = c.spelling, c.location.line
    if name not in FETCHES:
        tr.fail(c, f"`{name}`", "tex1D, tex2D, tex3D, their Layered forms or tex1Dfetch "
                "(ROCm allocates no cubemap arrays: hipArrayCubemap is refused)")
    fields = ct.scalar_fields(c.type) if ct.dtype_name(c.type) is None else \
        [("x", ct.dtype_name(c.type))]
    if not fields or len({d for _, d in fields}) != 1 or len(fields) not in (1, 2, 4):
        tr.fail(c, f"`{name}` returning `{c.type.spelling}`", "a scalar or a vector of "
                "1, 2 or 4 channels: tex2D<float>, tex2D<float4>, tex2D<uchar4>")
    dtype = fields[0][1]
    params = list(c.referenced.get_arguments()) if c.referenced is not None else []
    if len(args) != len(params) or not params or not is_texture(params[0].type):
        tr.fail(c, f"this form of `{name}`", f"{name}<T>(texture object, coordinates)")
    data, desc = argument(tr, args[0])
    coords = [_kept(tr, tr.convert(a, p.type)[0], line) for a, p in zip(args[1:], params[1:],
                                                                          strict=True)]
    is_float = dtype in ("float32", "float64")
    if name == "tex1Dfetch":
        at = _kept(tr, f"gpusim_tex_fetch_index({desc}, {coords[0]})", line)
        read = "gpusim_tex_value" if is_float else "gpusim_tex_raw"
        values = [f"{read}({data}, {desc}, {at}, {k})" for k in range(len(fields))]
    else:
        dims, layered = TEXTURE_CALLS[name]
        layer = coords[dims] if layered else "0"
        xyz = [*coords[:dims], *["np.float32(0.0)"] * (3 - dims)]
        where = f"{', '.join(xyz)}, {layer}, {dims}"
        if is_float:
            values = [f"gpusim_tex_sample({data}, {desc}, {where}, {k})"
                      for k in range(len(fields))]
        else:
            at = _kept(tr, f"gpusim_tex_index({desc}, {where})", line)
            values = [f"gpusim_tex_raw({data}, {desc}, {at}, {k})" for k in range(len(fields))]
    values = [f"np.{dtype}({v})" for v in values]
    return values[0] if ct.dtype_name(c.type) is not None else f"({', '.join(values)})"


API = ["hipMallocArray", "hipMalloc3DArray", "hipFreeArray", "hipGetChannelDesc",
       "hipArrayGetInfo", "hipMemcpy2DToArray", "hipMemcpy2DFromArray", "hipMemcpyToArray",
       "hipMemcpyFromArray", "hipMemcpy3D", "hipMemset2D", "hipCreateTextureObject",
       "hipDestroyTextureObject", "hipGetTextureObjectResourceDesc",
       "hipGetTextureObjectTextureDesc"]
