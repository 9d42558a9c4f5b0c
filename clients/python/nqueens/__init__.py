"""A Python client of nqueens-server, the n-Queens completion service."""
from nqueens.client import Client, Count, Error, Result, Validation

__all__ = ["Client", "Count", "Error", "Result", "Validation"]
