"""Starts nqueens-server with the arguments of the rendered Deployment, so
that the manifests name only flags the server has, with values it accepts.

usage: server_args_test.py RENDERED_YAML SERVER_BINARY
The mounted files (TLS certificate and key, tokens) are made in a temporary
directory with openssl, and every address becomes 127.0.0.1 on a free port.
When the arguments turn on the HTTP face (--http-listen, components/http),
it is called too: GET /healthz and GET / need no token, POST /v1/solve needs
the Secret's token, over HTTPS when the arguments give a certificate.
Exits 1, saying why, unless the server starts, serves and exits 0 on SIGTERM.
"""
import http.client
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import threading

import yaml

STARTUP_SECONDS = 30
TOKEN = "deploy-test-token"


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
        tokens.write(TOKEN + "\n")


def local_args(args, directory):
    """Mount paths into `directory`, addresses onto free loopback ports."""
    local = []
    for arg in args:
        arg = re.sub(r"=/etc/nqueens/[a-z]+/", f"={directory}/", arg)
        arg = re.sub(r"=0\.0\.0\.0:\d+$", "=127.0.0.1:0", arg)
        local.append(arg)
    return local


def listen_addresses(args):
    """How many "listening on" lines the server prints: one per --listen
    address."""
    values = [a.split("=", 1)[1] for a in args if a.startswith("--listen=")]
    return sum(len(v.split(",")) for v in values) if values else 1


def check_http(address, directory, tls):
    """What a client of the HTTP face relies on; returns what went wrong, or
    None."""
    host, port = address.rsplit(":", 1)
    if tls:
        context = ssl.create_default_context(cafile=os.path.join(directory, "tls.crt"))
        context.check_hostname = False  # the test certificate names no address

        def connect():
            return http.client.HTTPSConnection(host, int(port), timeout=STARTUP_SECONDS,
                                               context=context)
    else:
        def connect():
            return http.client.HTTPConnection(host, int(port), timeout=STARTUP_SECONDS)

    def call(method, path, body=None, headers=None):
        connection = connect()
        try:
            connection.request(method, path, body=body,
                               headers={"Content-Type": "application/json", **(headers or {})})
            response = connection.getresponse()
            return response.status, response.getheader("Content-Type", ""), response.read()
        finally:
            connection.close()

    status, _, body = call("GET", "/healthz")
    if status != 200 or json.loads(body) != {"status": "SERVING"}:
        return f"GET /healthz answered {status} {body!r}"
    status, content_type, _ = call("GET", "/")
    if status != 200 or not content_type.startswith("text/html"):
        return f"GET / answered {status} ({content_type})"
    solve = json.dumps({"n": 8}).encode()
    status, _, body = call("POST", "/v1/solve", solve)
    if status != 401:
        return f"POST /v1/solve without a token answered {status} {body!r}, not 401"
    status, _, body = call("POST", "/v1/solve", solve, {"Authorization": f"Bearer {TOKEN}"})
    if status != 200 or json.loads(body).get("outcome") != "OUTCOME_SOLVED":
        return f"POST /v1/solve with the token answered {status} {body!r}"
    return None


def main():
    rendered, server = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as directory:
        make_files(directory)
        args = local_args(deployment_args(rendered), directory)
        http_wanted = any(a.startswith("--http-listen=") for a in args)
        tls = any(a.startswith("--tls-cert=") for a in args)
        process = subprocess.Popen([server, *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        # A server that never prints a line it should is stopped, not waited on.
        watchdog = threading.Timer(STARTUP_SECONDS, process.send_signal, [signal.SIGTERM])
        watchdog.start()
        problem = None
        try:
            lines = [process.stdout.readline() for _ in range(listen_addresses(args))]
            first = lines[0]
            if http_wanted and all(line.startswith("listening on ") for line in lines):
                line = process.stdout.readline()
                if line.startswith("listening for HTTP on "):
                    problem = check_http(line.split()[-1], directory, tls)
                else:
                    problem = f"with --http-listen, printed {line!r}, not its HTTP address"
        except (OSError, ValueError, http.client.HTTPException) as error:
            problem = f"the HTTP face failed: {error!r}"
        finally:
            watchdog.cancel()
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            _, errors = process.communicate(timeout=STARTUP_SECONDS)
        if not first.startswith("listening on ") or process.returncode != 0 or problem:
            sys.exit(f"FAIL: nqueens-server {' '.join(args)}\n"
                     f"printed {first!r}, exited {process.returncode}"
                     f"{'; ' + problem if problem else ''}:\n{errors}")
    served = " and its HTTP face answered" if http_wanted else ""
    print(f"OK: the server ran with the Deployment's {len(args)} arguments{served}")


if __name__ == "__main__":
    main()
