"""The Indexed Job deploy/jobs/count-parts, rendered offline with kubectl
kustomize.

usage: count_parts_job_test.py DEPLOY_DIR [--cli NQUEENS --sum SUM_PARTS]

Checks the rendered Job: an Indexed Job of one part per pod (completions =
PARTS), retried per part, that runs the CLI of the Deployment's image with
the Deployment's security context, and whose args name only variables its
container defines; and that deploy/'s own kustomization holds no Job.

With --cli and --sum, also renders an overlay that sets the knobs as the
the containers guide (docs/guides/containers.md) shows (n = 10 in 4 parts), runs each pod's command with the CLI
binary, JOB_COMPLETION_INDEX = 0 .. 3, feeds their output (in another order,
among other log lines) to scripts/sum_parts.py, and compares its total with
one `nqueens --local --json count 10` (nodes: the parts' added up); and that
the script refuses a missing part, a repeated one and one of another count,
naming them.

Exits 77 (skipped) without kubectl, unless CI=true. Prints every failed
check and exits 1 if there is any.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

JOB = "nqueens-count-parts"
CLI_IN_IMAGE = "/usr/local/bin/nqueens"
INDEX_ANNOTATION = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
# The overlay of the containers guide's "Counting in parts with a Job", with small knobs.
OVERLAY = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - {base}
patches:
  - patch: |-
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: nqueens-count-parts
      spec:
        completions: 4
        parallelism: 2
        template:
          spec:
            containers:
              - name: count
                env:
                  - name: BOARD_SIZE
                    value: "10"
                  - name: PARTS
                    value: "4"
"""
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def render(directory):
    result = subprocess.run(["kubectl", "kustomize", directory], capture_output=True,
                            text=True, timeout=120)
    if result.returncode != 0:
        sys.exit(f"FAIL: kubectl kustomize {directory}: {result.stderr.strip()}")
    return [o for o in yaml.safe_load_all(result.stdout) if o]


def only_job(objects):
    if len(objects) != 1 or objects[0].get("kind") != "Job":
        sys.exit(f"FAIL: expected one Job, found {[o.get('kind') for o in objects]}")
    return objects[0]


def container_of(workload):
    return workload["spec"]["template"]["spec"]["containers"][0]


def env_values(container, index):
    """The container's environment in a pod of completion index `index`."""
    values = {}
    for variable in container.get("env", []):
        source = variable.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
        values[variable["name"]] = str(index) if source == INDEX_ANNOTATION else variable.get(
            "value")
    return values


def expand(arg, environment):
    """Kubernetes' expansion of args: $(NAME) of a defined variable becomes
    its value, $$ a $; anything else stays."""
    def value(match):
        return "$" if match.group(0) == "$$" else environment.get(match.group(1), match.group(0))

    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)", value, arg)


def check_job(job, deployment, dockerfile):
    spec = job["spec"]
    pod = spec["template"]["spec"]
    check(len(pod["containers"]) == 1, "the pod has exactly one container")
    container = container_of(job)
    environment = env_values(container, 0)
    check(spec.get("completionMode") == "Indexed", "completionMode is Indexed")
    parts = environment.get("PARTS")
    check(parts is not None and str(spec.get("completions")) == parts,
          f"completions ({spec.get('completions')}) equal PARTS ({parts}): one pod per part")
    check(1 <= spec.get("parallelism", 1) <= spec.get("completions", 1),
          "parallelism is from 1 to completions")
    check(isinstance(spec.get("backoffLimitPerIndex"), int),
          "a failed part runs again on its own (backoffLimitPerIndex)")
    check(pod.get("restartPolicy") == "Never",
          "restartPolicy is Never, as backoffLimitPerIndex needs")
    for rule in spec.get("podFailurePolicy", {}).get("rules", []):
        named = rule.get("onExitCodes", {}).get("containerName")
        check(named in (None, container["name"]),
              f"podFailurePolicy names the container {container['name']}, not {named}")

    server = container_of(deployment)
    check(container.get("image") == server.get("image"),
          f"the image is the Deployment's ({server.get('image')})")
    check(container.get("imagePullPolicy") == server.get("imagePullPolicy"),
          "imagePullPolicy is the Deployment's")
    check(container.get("command") == [CLI_IN_IMAGE], f"the command is {CLI_IN_IMAGE}")
    with open(dockerfile) as file:
        check(re.search(r"^COPY .*/client/nqueens /usr/local/bin/$", file.read(), re.M),
              f"the image holds the CLI at {CLI_IN_IMAGE} ({dockerfile})")
    check(pod.get("securityContext") == deployment["spec"]["template"]["spec"].get(
        "securityContext"), "the pod's securityContext is the Deployment's")
    check(container.get("securityContext") == server.get("securityContext"),
          "the container's securityContext is the Deployment's")
    for bound in ("requests", "limits"):
        for resource in ("cpu", "memory"):
            check(resource in container.get("resources", {}).get(bound, {}),
                  f"{bound}.{resource} is set")

    args = container.get("args", [])
    for wanted in ("--local", "--json", "count", "--parts=$(PARTS)",
                   "--part-index=$(JOB_COMPLETION_INDEX)"):
        check(wanted in args, f"the args hold {wanted}")
    for arg in args:
        for name in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", arg):
            check(name in environment, f"the args' $({name}) is a variable of the container")
    index_variables = [variable for variable in container.get("env", [])
                       if variable["name"] == "JOB_COMPLETION_INDEX"]
    check(len(index_variables) == 1 and
          index_variables[0].get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") ==
          INDEX_ANNOTATION, "JOB_COMPLETION_INDEX comes from the completion index annotation")


def run_parts(job, cli):
    """Each pod's stdout line, as its command prints it here."""
    container = container_of(job)
    lines = []
    for index in range(job["spec"]["completions"]):
        environment = env_values(container, index)
        args = [expand(arg, environment) for arg in container["args"]]
        result = subprocess.run([cli, *args], capture_output=True, text=True, timeout=300,
                                env=dict(os.environ, **environment))
        if not check(result.returncode == 0,
                     f"part {index}: {' '.join(args)} exited {result.returncode}: "
                     f"{result.stderr.strip()}"):
            continue
        output = result.stdout.splitlines()
        check(len(output) == 1, f"part {index} printed one line: {output}")
        part = json.loads(output[0])
        check((part.get("part_index"), part.get("part_count")) in
              ((index, 4), (str(index), "4")),
              f"part {index}'s line says part_index {index} of part_count 4: {output[0]}")
        lines.append(output[0])
    return lines


def sum_parts(sum_script, lines):
    return subprocess.run([sys.executable, sum_script], capture_output=True, text=True,
                          input="".join(f"{line}\n" for line in lines), timeout=60)


def check_sums(lines, cli, sum_script):
    whole = json.loads(subprocess.run([cli, "--local", "--json", "count", "10"], check=True,
                                      capture_output=True, text=True, timeout=60).stdout)
    noise = ["nqueens: a log line of another program", '{"error":{"code":"UNAVAILABLE"}}']
    summed = sum_parts(sum_script, noise[:1] + lines[::-1] + noise[1:])
    if check(summed.returncode == 0, f"sum_parts.py failed: {summed.stderr.strip()}"):
        total = json.loads(summed.stdout)
        check(list(total) == list(whole), f"the total has the keys of one count: {list(total)} "
              f"against {list(whole)}")
        for key in ("n", "solutions", "fundamental"):
            check(total.get(key) == whole.get(key),
                  f"the total's {key} {total.get(key)} is one count's {whole.get(key)}")
        nodes = sum(int(json.loads(line)["nodes"]) for line in lines)
        check(total.get("nodes") == str(nodes),
              f"the total's nodes {total.get('nodes')} are the parts' {nodes}")
    other = json.loads(lines[3])
    other["part_count"] = 5 if isinstance(other["part_count"], int) else "5"
    refusals = [
        (lines[:2] + lines[3:], "1 of the 4 parts missing: 2"),
        (lines + lines[1:2], "part 1 is there 2 times"),
        (lines[:3] + [json.dumps(other)], "is a part of 5 parts, the lines before of 4"),
    ]
    for given, message in refusals:
        refused = sum_parts(sum_script, given)
        check(refused.returncode == 1 and message in refused.stderr and not refused.stdout,
              f"sum_parts.py refuses, saying {message!r}: exit {refused.returncode}, "
              f"{refused.stderr.strip()!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("deploy_dir")
    parser.add_argument("--cli", help="the nqueens binary, to run the pods' commands")
    parser.add_argument("--sum", help="scripts/sum_parts.py")
    options = parser.parse_args()
    if shutil.which("kubectl") is None:
        if os.environ.get("CI") == "true":
            sys.exit("FAIL: kubectl is not installed; CI needs it to render the Job")
        print("SKIP: kubectl is not installed, so the Job cannot be rendered", file=sys.stderr)
        return 77
    deploy_dir = os.path.abspath(options.deploy_dir)
    job_dir = os.path.join(deploy_dir, "jobs", "count-parts")
    server_objects = render(deploy_dir)
    check(not [o for o in server_objects if o.get("kind") == "Job"],
          "deploy/'s kustomization holds no Job: the count is applied on its own")
    deployment = next(o for o in server_objects if o.get("kind") == "Deployment")
    dockerfile = os.path.join(deploy_dir, "..", "docker", "Dockerfile.server")
    check_job(only_job(render(job_dir)), deployment, dockerfile)
    if options.cli:
        with tempfile.TemporaryDirectory() as overlay:
            # kustomize takes no absolute path to a base.
            with open(os.path.join(overlay, "kustomization.yaml"), "w") as file:
                file.write(OVERLAY.format(base=os.path.relpath(job_dir, overlay)))
            job = only_job(render(overlay))
        check_job(job, deployment, dockerfile)
        lines = run_parts(job, options.cli)
        if check(len(lines) == 4, "every part printed its line"):
            check_sums(lines, options.cli, options.sum)
    for message in failures:
        print(f"FAIL: {message}")
    if failures:
        return 1
    print("OK: the Job renders, and passes every check" +
          (", and its parts add up to one count" if options.cli else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
