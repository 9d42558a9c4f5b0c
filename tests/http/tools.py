"""The command line the HTTP tests share: the binaries they run."""
import argparse
import os


def parse_arguments(description, *more):
    """Parses --server, --client and --checker (made absolute: some cases
    run the CLI in a directory of their own) and the (name, help) pairs of
    `more`; returns them and the arguments left for unittest."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--server", required=True, help="the nqueens-server binary")
    parser.add_argument("--client", required=True, help="the nqueens CLI")
    parser.add_argument("--checker", required=True, help="nqueens-check-certificate")
    for name, help_text in more:
        parser.add_argument(name, help=help_text)
    options, unittest_args = parser.parse_known_args()
    for name in ("server", "client", "checker"):
        setattr(options, name, os.path.abspath(getattr(options, name)))
    return options, unittest_args
