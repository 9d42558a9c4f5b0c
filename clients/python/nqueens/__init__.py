"""A Python client of nqueens-server, the n-Queens completion service.

nqueens.Client blocks; nqueens.aio.Client is the same on grpc.aio.
"""
import importlib


def _require(module: str, package: str, debian: str) -> None:
    # First thing: without it the stubs' imports would fail with a bare
    # "No module named 'grpc'", which does not say what to install.
    try:
        importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"the nqueens package needs {package} (import {module} failed: {error}); "
            f"install it with `pip install {package}`, or on Debian `apt install {debian}`",
            name=module) from error


_require("grpc", "grpcio", "python3-grpcio")
_require("google.protobuf", "protobuf", "python3-protobuf")

from nqueens.client import Client  # noqa: E402
from nqueens.errors import Error  # noqa: E402
from nqueens.requests import Limits  # noqa: E402
from nqueens.results import (BatchAnswer, BlockStats, Count, Result, Stats,  # noqa: E402
                             Validation)

__all__ = ["BatchAnswer", "BlockStats", "Client", "Count", "Error", "Limits", "Result",
           "Stats", "Validation"]
