"""``python -m gpusim.hipcc``: the ``gpusim-hipcc`` command."""

from gpusim.hipcc.cli import entry_point

if __name__ == "__main__":
    entry_point()
