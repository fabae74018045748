"""``python -m gpusim.rccl_tests all_reduce -b 8 -e 256M -f 2 -g 8``: rccl-tests' sweeps
on the emulated GPUs (see gpusim/libs/rccl/sweep.py)."""

from gpusim.libs.rccl.sweep import main, sweep

__all__ = ["main", "sweep"]

if __name__ == "__main__":
    main()
