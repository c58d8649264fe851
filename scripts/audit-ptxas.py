#!/usr/bin/env python3
"""Audits the shipped kernel libraries' PTX against test/gpu/ptxas-ledger.txt.

    scripts/audit-ptxas.py LEDGER LIBDIR... [--ptxas PATH]

Every kernel entry of every .ptx under the library folders must be accepted
by ptxas for sm_90a, spill exactly the bytes the ledger records for it (0
when it names none) and use Tensor Core MMA (wgmma or mma.sync) unless a
`nomma` rule of the ledger covers it. A kernel that spills less than its
ledger line is reported too: the ledger is the list of known spills, kept
current. Ledger lines:

    spill <kernel> <bytes>   # a known spill
    nomma <regex> <why>      # kernels without Tensor Core MMA, and why

Exits 0 when everything matches, 1 otherwise (with one line per problem),
77 (ctest's skip code) when ptxas is missing.
"""

import os
import re
import subprocess
import sys


def read_ledger(path):
    spills, nomma = {}, []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if fields[0] == "spill" and len(fields) == 3 and fields[2].isdigit():
                if fields[1] in spills:
                    sys.exit(f"{path}:{number}: {fields[1]} listed twice")
                spills[fields[1]] = int(fields[2])
            elif fields[0] == "nomma" and len(fields) >= 3:
                nomma.append(re.compile(fields[1]))
            else:
                sys.exit(f"{path}:{number}: expected 'spill KERNEL BYTES' or "
                         f"'nomma REGEX WHY', got: {line}")
    return spills, nomma


def entries(ptx_text):
    """Kernel name -> its PTX text (from .entry to the next .entry)."""
    parts = re.split(r"^(?=(?:\.visible\s+)?\.entry\s)", ptx_text, flags=re.M)
    result = {}
    for part in parts[1:]:
        name = re.match(r"(?:\.visible\s+)?\.entry\s+(\w+)", part).group(1)
        result[name] = part
    return result


def ptxas_report(ptxas, path):
    """(kernel name -> (spill store bytes, stack frame bytes), warnings), or
    an error string. Each function's numbers follow its "Function properties
    for NAME" line (a .func's as well as a kernel's)."""
    run = subprocess.run([ptxas, "-arch=sm_90a", "-v", path, "-o", os.devnull],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return f"ptxas rejects it:\n{run.stderr.strip()}"
    report, warnings, current = {}, [], None
    compiled = set()
    for line in run.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            compiled.add(m.group(1))
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = m.group(1)
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
        if m and current:
            report[current] = (int(m.group(2)), int(m.group(1)))
        # wgmma serialized for want of registers, or any other warning:
        # ptxas still succeeds, the kernel is not what it should be.
        if re.search(r"Potential Performance Loss|serialized|ptxas warning",
                     line):
            warnings.append(line.strip())
    return {k: v for k, v in report.items() if k in compiled}, warnings


def main(argv):
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                         "bin", "ptxas")
    if "--ptxas" in argv:
        i = argv.index("--ptxas")
        ptxas = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) < 3:
        sys.exit(__doc__)
    if not os.path.exists(ptxas):
        print(f"SKIP: no ptxas at {ptxas} (CUDA toolkit not installed)")
        return 77
    ledger_spills, nomma = read_ledger(argv[1])
    problems, seen, kernels = [], set(), 0
    used_rules = set()
    for folder in argv[2:]:
        files = sorted(f for f in os.listdir(folder) if f.endswith(".ptx"))
        if not files:
            problems.append(f"{folder}: no .ptx files")
        for name in files:
            path = os.path.join(folder, name)
            with open(path) as f:
                bodies = entries(f.read())
            report = ptxas_report(ptxas, path)
            if isinstance(report, str):
                problems.append(f"{path}: {report}")
                continue
            report, warnings = report
            problems += [f"{path}: {w}" for w in warnings]
            if not bodies:
                problems.append(f"{path}: no kernel entries")
            # The kernels read from the text must be those ptxas compiled
            # (a .func ptxas reports too is not a kernel).
            missing = sorted(set(bodies) - set(report))
            if missing:
                problems.append(f"{path}: ptxas reported nothing for "
                                f"{', '.join(missing)}")
            unread = sorted(set(report) - set(bodies))
            if unread:
                problems.append(f"{path}: kernels ptxas compiled but the "
                                f"audit did not find: {', '.join(unread)}")
            for kernel, body in bodies.items():
                kernels += 1
                seen.add(kernel)
                got, stack = report.get(kernel, (None, 0))
                allowed = ledger_spills.get(kernel, 0)
                if got is None:
                    continue
                if stack > 0 and kernel not in ledger_spills:
                    problems.append(f"{kernel}: {stack} bytes of stack frame "
                                    "(local memory) and no ledger line")
                if got > allowed:
                    problems.append(f"{kernel}: spills {got} bytes, the ledger "
                                    f"allows {allowed}")
                elif got < allowed:
                    problems.append(f"{kernel}: spills {got} bytes, the ledger "
                                    f"says {allowed}: update the ledger")
                rules = [r for r in nomma if r.search(kernel)]
                used_rules.update(r.pattern for r in rules)
                if not rules and not re.search(r"wgmma\.mma_async|mma\.sync",
                                               body):
                    problems.append(f"{kernel}: no Tensor Core MMA (wgmma or "
                                    "mma.sync) and no nomma rule covers it")
    for kernel in sorted(set(ledger_spills) - seen):
        problems.append(f"{kernel}: in the ledger but not in the libraries")
    for rule in nomma:
        if rule.pattern not in used_rules:
            problems.append(f"nomma {rule.pattern}: matches no kernel")
    known = sum(1 for k in seen if ledger_spills.get(k, 0) > 0)
    for p in problems:
        print("FAIL", p)
    version = subprocess.run([ptxas, "--version"], capture_output=True,
                             text=True).stdout.strip().splitlines()
    print(f"{kernels} kernel entries audited ({len(seen)} distinct): "
          f"{len(seen) - known} distinct spill-free, {known} with the "
          f"ledger's known spills; {len(problems)} problems "
          f"({version[-1] if version else 'ptxas'})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
