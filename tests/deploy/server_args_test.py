"""Starts nqueens-server with the arguments of the rendered Deployment, so
that the manifests name only flags the server has, with values it accepts.

usage: server_args_test.py RENDERED_YAML SERVER_BINARY
The mounted files (TLS certificate and key, tokens) are made in a temporary
directory with openssl, and every address becomes 127.0.0.1 on a free port.
Exits 1, saying why, unless the server starts, serves and exits 0 on SIGTERM.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

import yaml

STARTUP_SECONDS = 30


def deployment_args(rendered_path):
    with open(rendered_path) as rendered:
        objects = [o for o in yaml.safe_load_all(rendered) if o]
    deployment = next(o for o in objects if o.get("kind") == "Deployment")
    return deployment["spec"]["template"]["spec"]["containers"][0]["args"]


def make_files(directory):
    """The Secrets' files: a self-signed certificate and key, and a token."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", os.path.join(directory, "tls.key"),
                    "-out", os.path.join(directory, "tls.crt")],
                   check=True, capture_output=True)
    with open(os.path.join(directory, "tokens"), "w") as tokens:
        tokens.write("deploy-test-token\n")


def local_args(args, directory):
    """Mount paths into `directory`, addresses onto free loopback ports."""
    local = []
    for arg in args:
        arg = re.sub(r"=/etc/nqueens/[a-z]+/", f"={directory}/", arg)
        arg = re.sub(r"=0\.0\.0\.0:\d+$", "=127.0.0.1:0", arg)
        local.append(arg)
    return local


def main():
    rendered, server = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as directory:
        make_files(directory)
        args = local_args(deployment_args(rendered), directory)
        process = subprocess.Popen([server, *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            first = process.stdout.readline()
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            _, errors = process.communicate(timeout=STARTUP_SECONDS)
        if not first.startswith("listening on ") or process.returncode != 0:
            sys.exit(f"FAIL: nqueens-server {' '.join(args)}\n"
                     f"printed {first!r}, exited {process.returncode}:\n{errors}")
    print(f"OK: the server ran with the Deployment's {len(args)} arguments")


if __name__ == "__main__":
    main()
