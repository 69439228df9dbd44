#!/usr/bin/env python3
"""Checks the module graph against the rules docs/ARCHITECTURE.md states ("What may import what").

Reads `swift package dump-package` (no build) and every target's Swift files. Fails, naming the module and the
file, when:
  1. a module of one half depends on a module of the other half (the kiosk's and the server's share only the
     neutral modules);
  2. a core module (the domain, no C, no I/O) depends on a C module, or imports one or anything but Foundation;
  3. a shipped executable (kiosk, kioskctl, checkin-server) links test support;
  4. a file imports a module of this package that its target does not declare (a transitive import works by
     accident of the build order and hides the real graph).
Prints the graph's layers on success. Usage: scripts/module-graph.py [package folder, default .]
"""
import json
import os
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
package = json.loads(subprocess.check_output(["swift", "package", "dump-package"], cwd=root, text=True))
targets = {t["name"]: t for t in package["targets"]}

NEUTRAL = {"PassFormat", "SignedRecords", "GrayImage", "EntryRules", "WireAPI", "BoundedNumbers", "CSVReading", "DedicatedThreads",
           "SystemCalls", "Cryptography", "ImageFiles", "QREncoding"}
CORE = {"PassFormat", "SignedRecords", "GrayImage", "EntryRules", "WireAPI", "BoundedNumbers", "CSVReading", "KioskCore",
        "CheckinCore"}
# What a core module may import from outside the package: value types, never I/O or a C library (Glibc).
CORE_MAY_IMPORT = {"Foundation", "Synchronization"}
TEST_SUPPORT = {"TestSupport", "PostgresTestSupport", "KioskScenes"}
SHIPPED = {"kiosk", "kioskctl", "checkin-server"}


def half(name):
    if name in NEUTRAL or name in TEST_SUPPORT or is_c(name):
        return None
    if name.startswith("Kiosk") or name in {"kiosk", "kioskctl", "kiosk-demo"}:
        return "kiosk"
    if name.startswith("Checkin") or name == "checkin-server":
        return "server"
    return None




def local_deps(name):
    out = []
    for dependency in targets[name]["dependencies"]:
        kind, value = next(iter(dependency.items()))
        if kind in ("byName", "target") and value[0] in targets:
            out.append(value[0])
    return out


def closure(name):
    seen, stack = set(), [name]
    while stack:
        for d in local_deps(stack.pop()):
            if d not in seen:
                seen.add(d)
                stack.append(d)
    return seen


def folder(t):
    if t.get("path"):
        return os.path.join(root, t["path"])
    return os.path.join(root, "Tests" if t["type"] == "test" else "Sources", t["name"])


def is_c(name):
    """A system library or a target of C or C++ sources (no Swift file in its folder)."""
    t = targets.get(name)
    if t is None:
        return False
    if t["type"] == "system":
        return True
    return not any(f.endswith(".swift") for _, _, files in os.walk(folder(t)) for f in files)


IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|(?:internal|package|public|private)\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|func|typealias|var|let)\s+)?(\w+)", re.M)
problems = []
for name, t in targets.items():
    if t["type"] == "system":
        continue
    deps = local_deps(name)
    mine = half(name)
    if t["type"] != "test":
        for d in deps:
            other = half(d)
            if mine and other and mine != other:
                problems.append(f"{name} ({mine}) depends on {d} ({other}): move what both need into a neutral module")
    if name in CORE:
        for d in closure(name):
            if is_c(d):
                problems.append(f"{name} is a core module but depends on the C module {d}")
    if name in SHIPPED:
        for d in closure(name) & TEST_SUPPORT:
            problems.append(f"{name} is shipped but links the test support {d}")
    base = folder(t)
    for directory, _, files in os.walk(base):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            text = re.sub(r"//.*", "", open(path, encoding="utf-8").read())
            for module in IMPORT.findall(text):
                if module in targets and module != name and module not in deps:
                    problems.append(f"{os.path.relpath(path, root)} imports {module}, which {name} does not declare")
                if name in CORE and (is_c(module) or module not in targets and module not in CORE_MAY_IMPORT):
                    problems.append(f"{os.path.relpath(path, root)} imports {module} in a core module (only "
                                    f"{', '.join(sorted(CORE_MAY_IMPORT))} and the package's core modules)")

if problems:
    print("module-graph: %d problems" % len(problems), file=sys.stderr)
    for p in sorted(set(problems)):
        print("  " + p, file=sys.stderr)
    sys.exit(1)
layers = {"neutral": sorted(NEUTRAL & targets.keys()), "kiosk": [], "server": []}
for name, t in targets.items():
    if t["type"] not in ("system", "test") and half(name):
        layers[half(name)].append(name)
for layer, names in layers.items():
    print(f"module-graph: {layer}: {' '.join(sorted(names))}")
print("module-graph: ok (%d targets)" % len(targets))
