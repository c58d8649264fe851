//===- Check.h - helpers to check kernels against references ----*- C++ -*-===//

#ifndef TESSERA_KERNELS_COMMON_CHECK_H
#define TESSERA_KERNELS_COMMON_CHECK_H

#include "dsl/Tessera.h"
#include "interpreter/Interpreter.h"

#include <cstdint>
#include <random>
#include <vector>

namespace tessera::check {

/// The interpreter's storage type for a DSL element type (index as i64).
interp::DType toInterp(dsl::DType type);

/// Fills `buffer` with uniform values in [lo, hi), rounded to its dtype, and
/// returns the stored values as doubles (what a reference must consume).
std::vector<double> fillUniform(interp::Buffer &buffer, std::mt19937_64 &rng,
                                double lo = -1.0, double hi = 1.0);

/// The buffer's values as doubles.
std::vector<double> values(const interp::Buffer &buffer);

/// ||got - want||_2 / ||want||_2; NaN anywhere gives +inf (NaN never passes).
double relativeL2(const std::vector<double> &got,
                  const std::vector<double> &want);

/// Number of elements still holding the poison pattern.
int64_t countPoisoned(const interp::Buffer &buffer);

/// A fresh seed from the OS (print it so a failure can be replayed), or the
/// value of TESSERA_SEED when it is set (the replay).
uint64_t freshSeed();

} // namespace tessera::check

#endif // TESSERA_KERNELS_COMMON_CHECK_H
