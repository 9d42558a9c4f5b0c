#!/usr/bin/python3
"""The Python client package (clients/python) against the nqueens-server binary.

Installs the package as its README says (pip, offline, into a virtual
environment over Debian's Python) with no protoc on the PATH, then runs the
cases of tests/clients/python/ with that environment's Python, from a
directory outside the repository, against servers on 127.0.0.1 port 0.

Run by CTest:
  python_package_test.py --server PATH --checker PATH --source-dir DIR [unittest arguments]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

TOOLS = ["openssl"]  # what the cases run besides Python and the server


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the nqueens-server binary")
    parser.add_argument("--checker", required=True,
                        help="the nqueens-check-certificate binary, which checks saved proofs")
    parser.add_argument("--source-dir", required=True, help="the repository's top directory")
    options, unittest_args = parser.parse_known_args()
    cases = os.path.join(options.source_dir, "tests", "clients", "python")
    with tempfile.TemporaryDirectory() as scratch:
        # A copy: an in-tree build would leave build/ and *.egg-info in the
        # checkout, which other builds share.
        source = os.path.join(scratch, "python")
        shutil.copytree(os.path.join(options.source_dir, "clients", "python"), source,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        # The PATH holds the environment and the tools the cases need, and
        # nothing else: no protoc, no grpc_python_plugin.
        tools = os.path.join(scratch, "tools")
        os.mkdir(tools)
        for tool in TOOLS:
            os.symlink(shutil.which(tool), os.path.join(tools, tool))
        venv = os.path.join(scratch, "venv")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                       check=True, timeout=300)
        environment = dict(os.environ, PATH=f"{venv}/bin:{tools}",
                           NQUEENS_SERVER=os.path.abspath(options.server),
                           NQUEENS_CHECKER=os.path.abspath(options.checker),
                           PYTHONDONTWRITEBYTECODE="1")  # no __pycache__ in the checkout
        environment.pop("PYTHONPATH", None)
        subprocess.run(["pip", "install", "--quiet", "--no-index", "--no-build-isolation",
                        source], check=True, timeout=300, env=environment, cwd=scratch)
        return subprocess.run(["python", "-m", "unittest", "discover", "--start-directory",
                               cases, "--top-level-directory", cases, *unittest_args],
                              timeout=900, env=environment, cwd=scratch).returncode


if __name__ == "__main__":
    sys.exit(main())
