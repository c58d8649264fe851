# -*- Python -*-
# Configuration of the tile lit test suite (see lit.site.cfg.py.in, which the
# build configures into build/test/lit/ and which loads this file).

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

# name: The name of this test suite.
config.name = "TILE"

config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)

# suffixes: A list of file extensions to treat as test files. Folders that
# need more (e.g. kernels/) add theirs in a lit.local.cfg.
config.suffixes = [".mlir"]

# test_source_root: The root path where tests are located.
config.test_source_root = os.path.dirname(__file__)

# test_exec_root: The root path where tests should be run.
config.test_exec_root = config.tessera_lit_obj_root

# excludes: A list of directories and files to exclude from the test suite.
config.excludes = [
    "Inputs",
    "CMakeLists.txt",
    "README.md",
    "lit.cfg.py",
    "lit.site.cfg.py",
]

config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
# The build's bin directory, for tests that run a binary by its full path.
config.substitutions.append(("%tessera_bin", config.tessera_tools_dir))
config.substitutions.append(("%tessera_src_root", config.tessera_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])

# FileCheck, `| not` and `| count` from the LLVM install.
llvm_config.use_default_substitutions()

# Tools are found on PATH as well as through the substitutions below: the
# build's bin directory first, then LLVM's (FileCheck, not, count, split-file).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tessera_tools_dir, append_path=True)

config.substitutions.append(("%PATH%", config.environment["PATH"]))

tool_dirs = [config.tessera_tools_dir, config.llvm_tools_dir]
tools = [
    "tile-opt",
    "not",
    "count",
    "split-file",
    # Built by other parts of the project; substituted only once they exist
    # (they are still found on PATH otherwise).
    ToolSubst("tessera", unresolved="ignore"),
    ToolSubst("tile-run", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Tests of optional tools can say `REQUIRES: tessera` / `REQUIRES: tile-run`.
for tool in ["tessera", "tile-run"]:
    if os.path.exists(os.path.join(config.tessera_tools_dir, tool)):
        config.available_features.add(tool)

# CUDA's ptxas, when the toolkit is installed, checks the PTX we emit
# (tests say `REQUIRES: ptxas`; without CUDA they are reported UNSUPPORTED).
ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
llvm_config.add_tool_substitutions(
    [ToolSubst("tile-compile", unresolved="ignore")], tool_dirs)
