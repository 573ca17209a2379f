"""A real audio stack for tests of `vac talk`: PulseAudio null devices, tmux, a daemon.

The harness is described in `pulse.py`; the fixtures are in `conftest.py`.
"""
