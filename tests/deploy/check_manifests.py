"""Checks the rendered deploy/ manifests (a multi-document YAML file).

usage: check_manifests.py RENDERED_YAML
Prints every failed check and exits 1 if there is any.
"""
import re
import sys

import yaml

GRPC_PORT = 50051
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def only(objects, kind):
    found = [o for o in objects if o.get("kind") == kind]
    if len(found) != 1:
        sys.exit(f"FAIL: expected one {kind}, found {len(found)}")
    return found[0]


def grace_seconds(args):
    """The server's --grace=Ns argument in seconds, or None."""
    for arg in args:
        match = re.fullmatch(r"--grace=(\d+)s", arg)
        if match:
            return int(match.group(1))
    return None


def check_deployment(deployment):
    pod = deployment["spec"]["template"]["spec"]
    check(len(pod["containers"]) == 1, "the pod has exactly one container")
    container = pod["containers"][0]
    for probe in ("readinessProbe", "livenessProbe"):
        grpc = container.get(probe, {}).get("grpc", {})
        check(grpc.get("port") == GRPC_PORT, f"{probe} is a gRPC probe on {GRPC_PORT}")
    ports = {p.get("name"): p.get("containerPort") for p in container.get("ports", [])}
    check(ports.get("grpc") == GRPC_PORT, f"containerPort {GRPC_PORT} is named grpc")
    check(f"--listen=0.0.0.0:{GRPC_PORT}" in container.get("args", []),
          f"the server listens on 0.0.0.0:{GRPC_PORT}")

    pod_security = pod.get("securityContext", {})
    check(pod_security.get("runAsNonRoot") is True, "runAsNonRoot is true")
    check(pod_security.get("runAsUser") == 10001, "runAsUser is 10001")
    security = container.get("securityContext", {})
    check(security.get("allowPrivilegeEscalation") is False,
          "allowPrivilegeEscalation is false")
    check(security.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem is true")
    check(security.get("capabilities", {}).get("drop") == ["ALL"],
          "all capabilities are dropped")

    resources = container.get("resources", {})
    for bound in ("requests", "limits"):
        for resource in ("cpu", "memory"):
            check(resource in resources.get(bound, {}), f"{bound}.{resource} is set")

    grace = grace_seconds(container.get("args", []))
    check(grace is not None, "--grace=Ns is given explicitly")
    if grace is not None:
        check(pod.get("terminationGracePeriodSeconds", 30) > grace,
              "terminationGracePeriodSeconds exceeds the server's --grace")


def named(objects, kind, name):
    found = [o for o in objects if o.get("kind") == kind and o["metadata"]["name"] == name]
    if len(found) != 1:
        sys.exit(f"FAIL: expected one {kind} named {name}, found {len(found)}")
    return found[0]


def check_service(service, deployment, headless):
    name = service["metadata"]["name"]
    spec = service["spec"]
    check(spec.get("type", "ClusterIP") == "ClusterIP", f"{name} is a ClusterIP Service")
    if headless:
        check(spec.get("clusterIP") == "None",
              f"{name} is headless (clusterIP: None): DNS returns every pod")
    else:
        check(spec.get("clusterIP") != "None", f"{name} has a cluster IP")
    ports = [p for p in spec.get("ports", []) if p.get("port") == GRPC_PORT]
    check(len(ports) == 1 and ports[0].get("appProtocol") == "grpc",
          f"{name} exposes {GRPC_PORT} with appProtocol grpc")
    pod_labels = deployment["spec"]["template"]["metadata"].get("labels", {})
    selector = spec.get("selector", {})
    check(selector and selector.items() <= pod_labels.items(),
          f"{name} selects the Deployment's pods")


def main():
    with open(sys.argv[1]) as rendered:
        objects = [o for o in yaml.safe_load_all(rendered) if o]
    deployment = only(objects, "Deployment")
    check_deployment(deployment)
    check_service(named(objects, "Service", "nqueens-server"), deployment, headless=False)
    check_service(named(objects, "Service", "nqueens-server-headless"), deployment, headless=True)
    for message in failures:
        print(f"FAIL: {message}")
    if failures:
        sys.exit(1)
    print(f"OK: {len(objects)} objects rendered, all checks passed")


if __name__ == "__main__":
    main()
