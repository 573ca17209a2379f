"""vac — a local-first voice-session daemon (VAC/1 over CURVE-authenticated ZeroMQ)."""

__version__ = "0.1.0"
