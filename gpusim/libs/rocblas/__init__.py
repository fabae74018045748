"""rocBLAS, emulated (the public face is ``gpusim.rocblas``).

    enums.py        rocblas_status, rocblas_operation, ... with their C values; RocblasError
    handle.py       handle (a libs.common LibraryHandle: device, stream), pointer mode,
                    workspace (device memory) queries
    checks.py       argument checks in rocBLAS's order; strided vector / matrix views
    blas_time.py    modeled time (peak rates x efficiency curve), grids, kernel names
    launching.py    queue kernels on the handle's stream; scalar results by pointer mode
    variants.py     one implementation -> one C name per precision
    level1.py       axpy scal copy swap rot rotm
    reductions.py   dot nrm2 asum iamax iamin
    level2.py       gemv ger trsv
    gemm.py         gemm, and what the gemm family shares
    level3.py       symm syrk trsm trmm
    batched.py      gemm_batched / gemm_strided_batched
    gemm_ex.py      rocblas_gemm_ex (f16/bf16/f32/f64/i8, f32 accumulation for 16-bit)
    auxiliary.py    set/get_vector, set/get_matrix
"""

from gpusim.libs.rocblas import auxiliary as _auxiliary
from gpusim.libs.rocblas import batched as _batched
from gpusim.libs.rocblas import enums as _enums
from gpusim.libs.rocblas import gemm as _gemm
from gpusim.libs.rocblas import gemm_ex as _gemm_ex
from gpusim.libs.rocblas import handle as _handle
from gpusim.libs.rocblas import level1 as _level1
from gpusim.libs.rocblas import level2 as _level2
from gpusim.libs.rocblas import level3 as _level3
from gpusim.libs.rocblas import reductions as _reductions
from gpusim.libs.rocblas.enums import ENUMS, RocblasError

_MODULES = [_handle, _level1, _reductions, _level2, _gemm, _level3, _batched, _gemm_ex, _auxiliary]
_NAMES: dict = {"RocblasError": RocblasError}
for _enum in ENUMS:
    _NAMES[_enum.__name__] = _enum
    _NAMES.update(_enum.__members__)  # C spells members at top level
for _module in _MODULES:
    _NAMES.update({name: getattr(_module, name) for name in dir(_module)
                   if name.startswith("rocblas_")})
_NAMES["rocblas_handle"] = _handle.Handle
globals().update(_NAMES)
__all__ = sorted(_NAMES)
del _enums
