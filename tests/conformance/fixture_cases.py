"""Test cases that misbehave on purpose, for the runner's own tests (not numba's)."""

import os
import time
import unittest


class Misbehaving(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(1 + 1, 2)

    def test_hangs(self):
        time.sleep(600)

    def test_kills_the_interpreter(self):
        os._exit(3)

    def test_fails(self):
        self.assertEqual(1, 2)

    def test_passes_after_the_others(self):
        pass
