// tile-compile's option flags (lowering::applyCompileFlag): values out of
// range and missing values are errors that name the flag; anything else
// that is not a flag, an input or an output is refused.
//
// RUN: not tile-compile %s --num-warps 0 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tile-compile %s --stages two 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not tile-compile %s --stages 8 2>&1 | FileCheck %s --check-prefix=STAGES8
// RUN: not tile-compile %s --num-warps 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tile-compile %s --fmad 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// WARPS: tile-compile: --num-warps takes a count from 1 to 32, got '0'
// STAGES: tile-compile: --stages takes a count from 2 to 6, got 'two'
// STAGES8: tile-compile: --stages takes a count from 2 to 6, got '8'
// MISSING: tile-compile: --num-warps needs a value
// UNKNOWN: tile-compile: unexpected argument '--fmad'
