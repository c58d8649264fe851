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
                spills[fields[1]] = int(fields[2])
            elif fields[0] == "nomma" and len(fields) >= 3:
                nomma.append(re.compile(fields[1]))
            else:
                sys.exit(f"{path}:{number}: expected 'spill KERNEL BYTES' or "
                         f"'nomma REGEX WHY', got: {line}")
    return spills, nomma


def entries(ptx_text):
    """Kernel name -> its PTX text (from .entry to the next .entry)."""
    parts = re.split(r"^(?=\.visible \.entry |\.entry )", ptx_text, flags=re.M)
    result = {}
    for part in parts[1:]:
        name = re.match(r"(?:\.visible )?\.entry (\w+)", part).group(1)
        result[name] = part
    return result


def ptxas_spills(ptxas, path):
    """Kernel name -> spill store bytes, or an error string."""
    run = subprocess.run([ptxas, "-arch=sm_90a", "-v", path, "-o", os.devnull],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return f"ptxas rejects it:\n{run.stderr.strip()}"
    spills, current = {}, None
    for line in run.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and current:
            spills[current] = int(m.group(1))
    return spills


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
    for folder in argv[2:]:
        files = sorted(f for f in os.listdir(folder) if f.endswith(".ptx"))
        if not files:
            problems.append(f"{folder}: no .ptx files")
        for name in files:
            path = os.path.join(folder, name)
            with open(path) as f:
                bodies = entries(f.read())
            spills = ptxas_spills(ptxas, path)
            if isinstance(spills, str):
                problems.append(f"{path}: {spills}")
                continue
            for kernel, body in bodies.items():
                kernels += 1
                seen.add(kernel)
                got, allowed = spills.get(kernel), ledger_spills.get(kernel, 0)
                if got is None:
                    problems.append(f"{kernel}: ptxas reported no spill line")
                elif got > allowed:
                    problems.append(f"{kernel}: spills {got} bytes, the ledger "
                                    f"allows {allowed}")
                elif got < allowed:
                    problems.append(f"{kernel}: spills {got} bytes, the ledger "
                                    f"says {allowed}: update the ledger")
                if not any(r.search(kernel) for r in nomma) and not re.search(
                        r"wgmma\.mma_async|mma\.sync", body):
                    problems.append(f"{kernel}: no Tensor Core MMA (wgmma or "
                                    "mma.sync) and no nomma rule covers it")
    for kernel in sorted(set(ledger_spills) - seen):
        problems.append(f"{kernel}: in the ledger but not in the libraries")
    known = sum(1 for k in seen if ledger_spills.get(k, 0) > 0)
    for p in problems:
        print("FAIL", p)
    print(f"{kernels} kernels audited: {kernels - known} spill-free, {known} "
          f"with the ledger's known spills; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
