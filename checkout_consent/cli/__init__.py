"""The command line, one module per verb group (`main` assembles them)."""

from checkout_consent.cli.main import main

__all__ = ["main"]
