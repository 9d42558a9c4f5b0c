"""Checks deploy/monitoring/ and the docs' metrics sections against a real
server, offline.

usage: check_monitoring.py MONITORING_DIR DOCS_DIR SERVER_BINARY

DOCS_DIR is docs/: the operations guide (guides/operations.md) has the
metrics table and the alerts, the explanation (explanation/how-it-works.md)
the Memory section.

Starts SERVER_BINARY on loopback with --metrics-listen, scrapes it once, and
checks that
  - every *.json file is valid JSON, and every *.yaml file valid YAML; the
    PrometheusRule has what the Prometheus Operator needs;
  - every PromQL expression in them (dashboard targets and variables, alert
    rules), and in the guide's "What to alert on" table, names only series the
    server exports (or Prometheus' own `up`);
  - the guide's metrics table lists exactly the series the server exports, and
    its alerts are the rule's alerts;
  - what the docs say each worker holds of the memory budget, in the metrics
    table and in the Memory section, is what the server says.
Prints every failed check and exits 1 if there is any.
"""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import yaml

STARTUP_SECONDS = 30
# Series Prometheus itself makes for every target.
PROMETHEUS_SERIES = {"up"}
# Not functions, but words PromQL puts before "(": `sum by (le) (...)`.
PROMQL_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool",
                   "and", "or", "unless", "offset", "inf", "nan"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def series_names(expr):
    """The series an expression selects: label matchers, ranges, strings,
    functions and grouping clauses are not names."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        before = text[match.start() - 1] if match.start() > 0 else " "
        if before.isdigit() or before in ".$":  # 1e3, 5m, a Grafana variable
            continue
        if text[match.end():].lstrip().startswith("("):  # a function
            continue
        if match.group(0).lower() in PROMQL_KEYWORDS:
            continue
        names.add(match.group(0))
    return names


def self_test():
    """The extractor finds what it must, so that a check cannot pass empty."""
    assert series_names(
        'histogram_quantile(0.99, sum by (le, grpc_method) (rate('
        'grpc_server_handling_seconds_bucket{grpc_code!="OK",instance=~"$instance"}'
        '[$__rate_interval]))) > 1e3') == {"grpc_server_handling_seconds_bucket"}
    assert series_names("a / on (instance) group_left b offset 5m or absent(c) > 0.9") == {
        "a", "b", "c"}


def scrape(server):
    """The series names a freshly started server exports, its histograms'
    _bucket, _sum and _count included; and its startup log."""
    process = subprocess.Popen(
        [server, "--listen=127.0.0.1:0", "--metrics-listen=127.0.0.1:0", "--workers=1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = []
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        port = None
        while port is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            log.append(line)
            match = re.search(r"serving metrics on http://127\.0\.0\.1:(\d+)/metrics", line)
            if match:
                port = int(match.group(1))
        if port is None:
            sys.exit(f"FAIL: {server} did not serve metrics:\n{''.join(log)}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as response:
            page = response.read().decode()
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=STARTUP_SECONDS)
    names = set()
    for line in page.splitlines():
        match = re.match(r"# TYPE (\S+) (\S+)", line)
        if match:
            name, kind = match.groups()
            names.add(name)
            if kind == "histogram":
                names.update({f"{name}_bucket", f"{name}_sum", f"{name}_count"})
            elif kind == "summary":
                names.update({f"{name}_sum", f"{name}_count"})
        elif line and not line.startswith("#"):
            names.add(re.match(r"[^{ ]+", line).group(0))
    for line in page.splitlines():
        check("nan" not in line.lower(), f"the metrics page has no NaN: {line}")
    return names


def worker_mib(server):
    """What the server says each worker holds: its refusal of a tiny budget
    reads "... workers and the express lane hold (56 MiB each)"."""
    result = subprocess.run(
        [server, "--listen=127.0.0.1:0", "--workers=1", "--memory-budget=1M"],
        capture_output=True, text=True, timeout=STARTUP_SECONDS)
    match = re.search(r"\((\d+)(?:\.0)? MiB each\)", result.stderr)
    if not match:
        sys.exit(f"FAIL: the server did not say what a worker holds:\n{result.stderr}")
    return int(match.group(1))


def check_names(where, expr, exported):
    names = series_names(expr)
    check(names, f"{where}: {expr!r} names a series")
    for name in sorted(names - exported - PROMETHEUS_SERIES):
        check(False, f"{where}: {name} is not a series the server exports ({expr!r})")


def dashboard_exprs(dashboard):
    """(where, PromQL) of every panel target, rows' panels included, and
    every query variable (label_values(SERIES, LABEL) names SERIES)."""
    found = []

    def panels(items):
        for panel in items:
            for target in panel.get("targets", []):
                if "expr" in target:
                    found.append((f"panel {panel.get('title')!r}", target["expr"]))
            panels(panel.get("panels", []))

    panels(dashboard.get("panels", []))
    for variable in dashboard.get("templating", {}).get("list", []):
        if variable.get("type") != "query":
            continue
        query = variable.get("query")
        query = query.get("query", "") if isinstance(query, dict) else query or ""
        match = re.fullmatch(r"label_values\((.*),\s*\w+\)", query)
        found.append((f"variable {variable.get('name')!r}", match.group(1) if match else query))
    return found


def check_dashboard(path, exported):
    with open(path) as file:
        try:
            dashboard = json.load(file)
        except json.JSONDecodeError as error:
            check(False, f"{path}: not valid JSON: {error}")
            return
    check(dashboard.get("title") and dashboard.get("uid"), f"{path}: has a title and a uid")
    exprs = dashboard_exprs(dashboard)
    check(exprs, f"{path}: has PromQL targets")
    for where, expr in exprs:
        check_names(f"{os.path.basename(path)} {where}", expr, exported)
    text = json.dumps(dashboard)
    for needed in ["grpc_server_handled_total", "grpc_server_handling_seconds_bucket",
                   "nqueens_calls_in_flight", "nqueens_completion_outcomes_total",
                   "nqueens_memory_reserved_bytes"]:
        check(needed in text, f"{path}: shows {needed}")


def rule_alerts(path, exported):
    """Checks a PrometheusRule file; its alerts' names."""
    with open(path) as file:
        try:
            documents = [d for d in yaml.safe_load_all(file) if d]
        except yaml.YAMLError as error:
            check(False, f"{path}: not valid YAML: {error}")
            return set()
    alerts = set()
    for document in documents:
        if document.get("kind") != "PrometheusRule":
            continue
        check(document.get("apiVersion") == "monitoring.coreos.com/v1",
              f"{path}: apiVersion monitoring.coreos.com/v1")
        check(document.get("metadata", {}).get("name"), f"{path}: has a name")
        for group in document["spec"]["groups"]:
            check(group.get("name") and group.get("rules"), f"{path}: a group has a name and rules")
            for rule in group["rules"]:
                name = rule.get("alert") or rule.get("record")
                check(name and isinstance(rule.get("expr"), str), f"{path}: {name} has an expr")
                check_names(f"{os.path.basename(path)} {name}", rule.get("expr", ""), exported)
                if "alert" in rule:
                    alerts.add(rule["alert"])
                    check(rule.get("labels", {}).get("severity"), f"{path}: {name} has a severity")
                    check(rule.get("annotations", {}).get("summary"),
                          f"{path}: {name} has a summary")
    check(alerts, f"{path}: has alerts")
    return alerts


def docs_section(docs, title):
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", docs, re.S | re.M)
    if not match:
        sys.exit(f"FAIL: the docs have no section {title!r}")
    return match.group(1)


def table_rows(section):
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("| ---"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            rows.append(cells)
    return rows[1:]  # the header


def check_docs(docs, exported, alerts, mib):
    metrics = docs_section(docs, "Metrics")
    listed = set()
    for row in table_rows(metrics):
        name = row[0].strip("`")
        kind = row[1]
        listed.add(name)
        if kind == "histogram":
            listed.update({f"{name}_bucket", f"{name}_sum", f"{name}_count"})
    for name in sorted(exported - listed):
        check(False, f"docs Metrics: the table lacks {name}, which the server exports")
    for name in sorted(listed - exported):
        check(False, f"docs Metrics: the table lists {name}, which the server does not export")

    docs_alerts = set()
    for row in table_rows(docs_section(docs, "What to alert on")):
        docs_alerts.add("NQueens" + "".join(w.capitalize() for w in row[0].split()))
        for expr in re.findall(r"`([^`]+)`", row[1]):
            if re.search(r"[({]", expr) or expr in exported:
                check_names(f"docs alert {row[0]!r}", expr.replace("\\|", "|"), exported)
    check(docs_alerts == alerts,
          f"the docs' alerts {sorted(docs_alerts)} are the PrometheusRule's {sorted(alerts)}")

    memory = docs_section(docs, "Memory")
    for where, text in [("Metrics", metrics), ("Memory", memory)]:
        said = re.findall(r"(\d+) MiB (?:for each worker|for the\s+fixed part)", text)
        check(said, f"docs {where}: says what each worker holds")
        for value in said:
            check(int(value) == mib,
                  f"docs {where}: each worker holds {value} MiB, the server says {mib}")


def main():
    monitoring, docs_dir, server = sys.argv[1:4]
    self_test()
    exported = scrape(server)
    check("grpc_server_handled_total" in exported, "the server exports grpc_server_handled_total")
    dashboards = glob.glob(os.path.join(monitoring, "*.json"))
    rules = glob.glob(os.path.join(monitoring, "*.yaml"))
    check(dashboards and rules, f"{monitoring} has a dashboard and a PrometheusRule")
    for path in dashboards:
        check_dashboard(path, exported)
    alerts = set()
    for path in rules:
        alerts |= rule_alerts(path, exported)
    pages = ["guides/operations.md", "explanation/how-it-works.md"]
    docs = "\n".join(open(os.path.join(docs_dir, page)).read() for page in pages)
    check_docs(docs, exported, alerts, worker_mib(server))
    if failures:
        for failure in failures:
            print(f"FAIL: {failure}")
        sys.exit(1)
    print(f"OK: {len(dashboards)} dashboard(s), {len(alerts)} alerts and the docs name only "
          f"the {len(exported)} series the server exports")


if __name__ == "__main__":
    main()
