"""``python -m gpusim.hipify FILE``: the same as the ``gpusim-hipify`` console script."""

from gpusim.hipify.cli import entry_point

if __name__ == "__main__":
    entry_point()
