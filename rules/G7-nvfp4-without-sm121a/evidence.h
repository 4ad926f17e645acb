// SPDX-License-Identifier: Apache-2.0
// G7 evidence: where a project uses NVFP4, where it names CUDA architectures (12.1 plain or
// arch-specific) and where it builds CUDA kernels. Spellings: knowledge/arch.yaml, nvfp4.yaml.
#pragma once
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "query/project.h"

namespace sc::g7 {

enum class Arch { None, Plain, Specific };

// Classify an architecture list ("12.1", "12.0;12.1a", "121a-real",
// "-gencode=arch=compute_121,code=sm_121", "Blackwell" when `named_archs`): specific when any
// token is arch-specific, else plain when any token is 12.1.
Arch classify(std::string_view text, bool named_archs);

// The 12.1 numbers in `text` that take the arch-specific suffix ("12.1" in "12.0;12.1+PTX",
// "121" in "sm_121"), as (offset, length); empty when a plain target cannot take it ("Blackwell").
std::vector<std::pair<size_t, size_t>> plain_numbers(std::string_view text);

// Does this word (an argument, a config value, a string literal) name NVFP4: a quantization
// value, a model id, a checkpoint directory or an FP4 kernel source? Prose and URLs do not.
bool nvfp4_word(std::string_view word);

// A monorepo of independent examples: a build and a use only meet when one's
// directory contains the other's (a root Dockerfile and src/quantize.py do).
bool near_dirs(const std::string& a, const std::string& b);

struct Place {
  Place(Location l, std::string w);
  Location loc;
  std::string what;
  std::string dir;
  Location value_loc;  // where the architecture list is written (the flag's value may follow it)
  std::string yields_to;  // a plain environment setting: the variable that decides instead (arch.yaml env_yields_to)
  bool doc = false;       // written in a Markdown document
  std::string source;     // a build's kernel source file as written (`nvcc x.cu`), when one is named
  // Do the two meet? Files: one's directory contains the other's. A document's code is weaker
  // evidence: it meets its own document, and the project files of its own folder it describes
  // (a README beside its Dockerfile), not another document or a subproject's files.
  bool near(const Place& o) const {
    if (doc || o.doc) return loc.path == o.loc.path || (doc != o.doc && dir == o.dir);
    return near_dirs(dir, o.dir);
  }
};

// Does the project hold the kernel source behind `place` (a Python file with inline kernels,
// or the one project file named like the build's `.cu` source) and does it have no FP4
// hardware code (knowledge native-fp4-code)? Such a build is not an NVFP4 kernel build.
bool kernels_without_fp4(const Project& p, const Place& place);

struct Evidence {
  std::vector<Place> uses, plain, specific, builds;
  // plain 12.1 lists of a build whose own CMake adds the `a` (llama.cpp): 12.1a for the uses
  // in their tree, not a project-wide 12.1a target
  std::vector<Place> suffixed;
  std::vector<std::string> arch_dirs;  // directories whose files name architectures (any GPU)
  std::set<std::string> spark_build_files;  // files that run an NGC image or another Spark build of an engine
  // Where the project's NVFP4 kernels can come from: NVIDIA's engine images named anywhere (an
  // image, or a setting's value such as TRT_IMAGE=nvcr.io/nvidia/tensorrt-llm/release:1.2.0),
  // and any other source: another engine image (vllm/vllm-openai, lmsysorg/sglang: knowledge
  // nvfp4-engine-images) or an install of a package with NVFP4 kernels (role nvfp4-kernels).
  bool ngc_engine = false, other_engine = false;

  // VAR=value for an arch-list variable; `cmake_define` for -DVAR=value on a command line.
  // `suffixed_by`: the project whose CMake turns a plain 12.1 into 12.1a (arch-suffixing-builds).
  void arch_setting(const std::string& var, const std::string& value, const Location& loc, bool cmake_define = false,
                    const std::string& suffixed_by = "");
  // An nvcc argument naming architectures ("-gencode arch=compute_121,code=sm_121").
  void arch_argument(const Location& loc, const std::string& what, std::string_view value, std::string short_what,
                     const Location* value_loc = nullptr);
  size_t arch_count() const { return plain.size() + specific.size() + suffixed.size(); }
};

// Everything G7 needs to know, from every file that is not test code.
Evidence gather(const Project& p);

}  // namespace sc::g7
