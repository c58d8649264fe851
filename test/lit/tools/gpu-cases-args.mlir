// tessera-gpu-cases refuses arguments it does not take, before writing any
// case: a flag is never its output folder, counts and seeds are numbers.
//
// RUN: rm -rf %t.cases
// RUN: not tessera-gpu-cases --help 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not tessera-gpu-cases %t.cases --count many 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tessera-gpu-cases %t.cases --seed 2>&1 | FileCheck %s --check-prefix=SEED
// RUN: not ls %t.cases

// USAGE: usage: tessera-gpu-cases OUT_DIR [--count N] [--seed S]
// COUNT: tessera-gpu-cases: bad argument '--count'
// SEED: tessera-gpu-cases: bad argument '--seed'
