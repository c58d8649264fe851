// A kernel whose shared memory exceeds what a block may have is refused at
// compile time (it would only fail at launch): the transpose of a 256 x 256
// f32 tile exchanges 256 KB through shared memory.
// RUN: not tile-compile %s --target sm_90a -o %t.ptx 2>&1 | FileCheck %s
// RUN: not tile-compile %s --target sm_80 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=SM80
// CHECK: kernel 'too_much_shared' needs 262144 bytes of shared memory; sm_90a allows 232448 a block
// SM80: kernel 'too_much_shared' needs 262144 bytes of shared memory; sm_80 allows 166912 a block

tile.kernel @too_much_shared(%x: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<256x256xf32>
  %u = tile.permute %t [1, 0] : tensor<256x256xf32> -> tensor<256x256xf32>
  tile.store %u, %x[%i, %i] : tensor<256x256xf32> -> !tile.view<?x?xf32>
}
