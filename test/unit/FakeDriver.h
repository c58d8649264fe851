//===- FakeDriver.h - tests of the entry points on the fake driver -*- C++
//-*-===//
//
// A fixture that points the runtime at FakeCuda.cpp (TESSERA_LIBCUDA) and
// reads what it recorded: launches, grids, parameter counts.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TEST_UNIT_FAKEDRIVER_H
#define TESSERA_TEST_UNIT_FAKEDRIVER_H

#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <memory>

namespace tessera::unit {

class FakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("TESSERA_LIBCUDA", TESSERA_FAKE_CUDA, 1);
    handle = dlopen(TESSERA_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    auto reset = reinterpret_cast<void (*)()>(dlsym(handle, "fake_cuda_reset"));
    get = reinterpret_cast<long long (*)(const char *)>(
        dlsym(handle, "fake_cuda_get"));
    paramCount =
        reinterpret_cast<int (*)()>(dlsym(handle, "fake_cuda_param_count"));
    ASSERT_TRUE(reset && get && paramCount);
    reset();
    ASSERT_TRUE(rt::Runtime::create(runtime).ok);
  }
  void TearDown() override {
    runtime.reset(); // before the fake's state goes
    if (handle)
      dlclose(handle);
    unsetenv("TESSERA_LIBCUDA");
  }
  void *handle = nullptr;
  long long (*get)(const char *) = nullptr;
  int (*paramCount)() = nullptr;
  std::unique_ptr<rt::Runtime> runtime;
};

} // namespace tessera::unit

#endif // TESSERA_TEST_UNIT_FAKEDRIVER_H
