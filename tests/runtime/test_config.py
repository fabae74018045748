"""gpusim.config: defaults, environment overrides, and clear errors."""

import pytest

from gpusim.config import Config
from gpusim.errors import ConfigError


def test_defaults():
    c = Config()
    assert (c.check, c.trace, c.watchdog_seconds) == (False, False, 30.0)


def test_environment_overrides_each_knob():
    c = Config()
    c.load_environment({"GPUSIM_CHECK": "yes", "GPUSIM_WATCHDOG_SECONDS": "2.5",
                        "GPUSIM_TRACE": "0", "GPUSIM_CACHE_DIR": "/tmp/x"})
    assert (c.check, c.watchdog_seconds, c.trace, c.cache_dir) == (True, 2.5, False, "/tmp/x")


@pytest.mark.parametrize(
    "env, words",
    [({"GPUSIM_CHECK": "maybe"}, "GPUSIM_CHECK"),
     ({"GPUSIM_WATCHDOG_SECONDS": "-1"}, "positive"),
     ({"GPUSIM_WATCHDOG_SECONDS": "soon"}, "number")],
)
def test_bad_environment_values_name_the_variable(env, words):
    with pytest.raises(ConfigError, match=words):
        Config().load_environment(env)


def test_unknown_setting_lists_the_known_ones():
    c = Config()
    with pytest.raises(ConfigError, match="watchdog_seconds"):
        c.watchdogseconds = 3
