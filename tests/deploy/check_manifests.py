"""Checks the rendered deploy/ manifests (a multi-document YAML file).

usage: check_manifests.py [--component http] RENDERED_YAML
With --component http, the manifests are deploy/ with components/http, and
the HTTP port must be served, declared, exposed and open; without it, it must
be off. Prints every failed check and exits 1 if there is any.
"""
import argparse
import re
import sys

import yaml

GRPC_PORT = 50051
HEALTH_PORT = 50052
METRICS_PORT = 9090
HTTP_PORT = 8080
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


def container_of(deployment):
    return deployment["spec"]["template"]["spec"]["containers"][0]


def flag_values(args, flag):
    return [a.split("=", 1)[1] for a in args if a.startswith(flag + "=")]


def check_deployment(deployment):
    pod = deployment["spec"]["template"]["spec"]
    check(len(pod["containers"]) == 1, "the pod has exactly one container")
    container = pod["containers"][0]
    args = container.get("args", [])
    for probe in ("readinessProbe", "livenessProbe"):
        grpc = container.get(probe, {}).get("grpc", {})
        check(grpc.get("port") == HEALTH_PORT,
              f"{probe} is a gRPC probe on the plaintext health port {HEALTH_PORT}")
    declared = container.get("ports", [])
    ports = {p.get("name"): p.get("containerPort") for p in declared}
    check(len(ports) == len(declared) and
          len({p.get("containerPort") for p in declared}) == len(declared),
          "container ports have distinct names and numbers")
    check(ports.get("grpc") == GRPC_PORT, f"containerPort {GRPC_PORT} is named grpc")
    check(ports.get("health") == HEALTH_PORT, f"containerPort {HEALTH_PORT} is named health")
    check(ports.get("metrics") == METRICS_PORT, f"containerPort {METRICS_PORT} is named metrics")
    for flag in (f"--listen=0.0.0.0:{GRPC_PORT}", f"--health-listen=0.0.0.0:{HEALTH_PORT}",
                 f"--metrics-listen=0.0.0.0:{METRICS_PORT}"):
        check(flag in args, f"the server is given {flag}")
    check(any(a.startswith("--max-connection-age=") for a in args),
          "--max-connection-age is set, so that clients re-resolve")

    annotations = deployment["spec"]["template"]["metadata"].get("annotations", {})
    check(annotations.get("prometheus.io/scrape") == "true", "pods are annotated for scraping")
    check(annotations.get("prometheus.io/port") == str(METRICS_PORT),
          f"the scrape annotation names port {METRICS_PORT}")
    check_secret_files(pod, container, args)

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


def check_secret_files(pod, container, args):
    """Every file flag points into a mounted Secret, mounted whole (a subPath
    mount would never see the Secret's updates)."""
    secret_volumes = {v["name"]: v["secret"]["secretName"]
                      for v in pod.get("volumes", []) if "secret" in v}
    mounts = {m["mountPath"]: m for m in container.get("volumeMounts", [])
              if m.get("name") in secret_volumes}
    for flag in ("--tls-cert", "--tls-key", "--auth-token-file"):
        values = flag_values(args, flag)
        check(len(values) == 1, f"{flag} is given once")
        if len(values) != 1:
            continue
        directory = values[0].rsplit("/", 1)[0]
        mount = mounts.get(directory)
        check(mount is not None, f"{flag} points into a mounted Secret")
        if mount is not None:
            check("subPath" not in mount and mount.get("readOnly") is True,
                  f"the Secret behind {flag} is mounted whole and read-only")


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
    container_ports = container_of(deployment).get("ports", [])
    for port in spec.get("ports", []):
        target = port.get("targetPort", port.get("port"))
        check(any(target in (p.get("name"), p.get("containerPort")) for p in container_ports),
              f"{name}'s port {port.get('port')} targets a port of the container ({target})")


def allows_port(rule, name, number):
    """Whether an ingress rule admits the container port `name` (`number`);
    a rule without ports admits every port."""
    ports = rule.get("ports")
    if not ports:
        return True
    return any(p.get("port") in (name, number) for p in ports)


def check_network_policy(policy, deployment):
    """The metrics port (no authentication, a thread per connection) is
    reachable from chosen peers only; gRPC stays open to clients."""
    spec = policy["spec"]
    pod_labels = deployment["spec"]["template"]["metadata"].get("labels", {})
    selector = spec.get("podSelector", {}).get("matchLabels", {})
    check(selector and selector.items() <= pod_labels.items(),
          "the NetworkPolicy selects the Deployment's pods")
    check("Ingress" in spec.get("policyTypes", []), "the NetworkPolicy restricts ingress")
    rules = spec.get("ingress", [])
    metrics_rules = [r for r in rules if allows_port(r, "metrics", METRICS_PORT)]
    check(metrics_rules, f"some peers may reach the metrics port {METRICS_PORT}")
    check(all(r.get("from") for r in metrics_rules),
          f"only peers named in `from` may reach the metrics port {METRICS_PORT}")
    check(any(allows_port(r, "grpc", GRPC_PORT) and not r.get("from") for r in rules),
          f"every client may reach the gRPC port {GRPC_PORT}")
    names = {p.get("name") for p in container_of(deployment).get("ports", [])}
    for rule in rules:
        for port in rule.get("ports", []):
            check(not isinstance(port.get("port"), str) or port["port"] in names,
                  f"the NetworkPolicy's port {port.get('port')} is a port of the container")


def check_http(objects, deployment, wanted):
    """components/http: the server serves HTTP on the port the container
    declares as "http", the ClusterIP Service exposes it, and every client may
    reach it, as the gRPC port. Without the component, none of it."""
    container = container_of(deployment)
    args = container.get("args", [])
    listen = flag_values(args, "--http-listen")
    declared = [p for p in container.get("ports", []) if p.get("name") == "http"]
    service = named(objects, "Service", "nqueens-server")
    exposed = [p for p in service["spec"].get("ports", []) if p.get("targetPort") == "http"]
    if not wanted:
        check(not listen, "the HTTP face is off by default (no --http-listen)")
        check(not declared and not exposed, "no port named http without components/http")
        return
    check(listen == [f"0.0.0.0:{HTTP_PORT}"],
          f"the server is given --http-listen=0.0.0.0:{HTTP_PORT}")
    check(len(declared) == 1 and declared[0].get("containerPort") == HTTP_PORT,
          f"containerPort {HTTP_PORT} is named http")
    # With the Deployment's --tls-cert, the HTTP port speaks HTTPS only.
    protocol = "https" if flag_values(args, "--tls-cert") else "http"
    check(len(exposed) == 1 and exposed[0].get("port") == HTTP_PORT and
          exposed[0].get("appProtocol") == protocol,
          f"nqueens-server exposes {HTTP_PORT} (targetPort http) with appProtocol {protocol}")
    rules = only(objects, "NetworkPolicy")["spec"].get("ingress", [])
    check(any(allows_port(r, "http", HTTP_PORT) and not r.get("from") for r in rules),
          f"every client may reach the HTTP port {HTTP_PORT}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--component", action="append", default=[], choices=["http"])
    parser.add_argument("rendered")
    options = parser.parse_args()
    with open(options.rendered) as rendered:
        objects = [o for o in yaml.safe_load_all(rendered) if o]
    deployment = only(objects, "Deployment")
    check_deployment(deployment)
    check_service(named(objects, "Service", "nqueens-server"), deployment, headless=False)
    check_service(named(objects, "Service", "nqueens-server-headless"), deployment, headless=True)
    check_network_policy(only(objects, "NetworkPolicy"), deployment)
    check_http(objects, deployment, "http" in options.component)
    for message in failures:
        print(f"FAIL: {message}")
    if failures:
        sys.exit(1)
    print(f"OK: {len(objects)} objects rendered, all checks passed")


if __name__ == "__main__":
    main()
