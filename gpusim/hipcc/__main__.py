"""``python -m gpusim.hipcc``: the ``gpusim-hipcc`` command."""

from gpusim.hipcc.cli import entry_point

entry_point()
