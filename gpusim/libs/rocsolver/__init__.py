"""rocSOLVER, emulated (the public face is ``gpusim.rocsolver``).

    enums.py     rocblas_svect, rocblas_evect, rocblas_workmode, ... (rocSOLVER's values)
    common.py    int32 device arrays (ipiv, info), blocked-factorization kernels
    lu.py        getrf getrs getri (+ getrf/getrs _batched and _strided_batched)
    cholesky.py  potrf potrs (+ potrf _batched and _strided_batched)
    qr.py        geqrf orgqr/ungqr gels
    spectral.py  gesvd syevd heevd
"""

from gpusim.libs.rocblas import enums as _rocblas_enums
from gpusim.libs.rocblas.enums import RocblasError
from gpusim.libs.rocsolver import cholesky as _cholesky
from gpusim.libs.rocsolver import lu as _lu
from gpusim.libs.rocsolver import qr as _qr
from gpusim.libs.rocsolver import spectral as _spectral
from gpusim.libs.rocsolver.enums import ENUMS

_MODULES = [_lu, _cholesky, _qr, _spectral]
_NAMES: dict = {"RocblasError": RocblasError, "rocblas_status": _rocblas_enums.rocblas_status}
for _enum in (*ENUMS, _rocblas_enums.rocblas_status, _rocblas_enums.rocblas_operation,
              _rocblas_enums.rocblas_fill):
    _NAMES[_enum.__name__] = _enum
    _NAMES.update(_enum.__members__)
for _module in _MODULES:
    _NAMES.update({name: getattr(_module, name) for name in dir(_module)
                   if name.startswith("rocsolver_")})
globals().update(_NAMES)
__all__ = sorted(_NAMES)
