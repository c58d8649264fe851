//===- LoweringPasses.h - tile lowering passes ------------------*- C++ -*-===//

#ifndef TESSERA_LOWERING_LOWERINGPASSES_H
#define TESSERA_LOWERING_LOWERINGPASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace tessera::lowering {

#define GEN_PASS_DECL
#include "lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowering/Passes.h.inc"

} // namespace tessera::lowering

#endif // TESSERA_LOWERING_LOWERINGPASSES_H
