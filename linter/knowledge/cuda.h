// SPDX-License-Identifier: Apache-2.0
// CUDA versions of wheel indexes, package names and container images, and the
// platforms a requirement installs on. The tables live in knowledge/{cuda,packages,
// platforms,containers}.yaml; this file keeps the reading logic.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "core/facts.h"

namespace sc {

// A number read from text with std::from_chars: nullopt when `text` is not all digits or
// does not fit an int (never throws).
std::optional<int> digits_value(std::string_view text);

// A CUDA version tag: "cu124" -> 124, "cu130" -> 130, "cu13" -> 130, "cu12" -> 120.
struct CudaTag {
  int value = -1;           // -1: not a CUDA tag
  bool unreadable = false;  // spelled like one ("cu" + digits) but the number cannot be read
};
CudaTag cuda_tag(std::string_view tag);
// cuda_tag(tag).value.
int cuda_tag_value(std::string_view tag);

// The CUDA variant a wheel index / find-links URL serves: ".../whl/cu124" -> 124,
// ".../nightly/cu130" -> 130, "https://wheels.vllm.ai/0.20.1/cu130" -> 130; -1 when none.
int cuda_of_url(std::string_view url);

// Thresholds from knowledge/cuda.yaml (cuda-thresholds): 126 and 130.
int last_cuda_without_blackwell();
int first_cuda13();

// knowledge/cuda.yaml pypi-aarch64-torch: the last torch release whose PyPI aarch64 wheel is
// CPU-only ("2.10"), and the first one past it ("2.11").
std::string pypi_aarch64_cpu_only_through();
std::string pypi_aarch64_first_unsettled();

// The CUDA release inside a container image, from its reference.
struct ImageCuda {
  bool known = false;
  bool unreadable = false;   // an NGC framework reference whose YY.MM tag cannot be read
  int major = 0, minor = 0;  // CUDA version, e.g. 12, 6
  bool ngc = false;          // nvcr.io/nvidia/<framework>:YY.MM tag
  std::string how;           // short explanation: "NGC 24.12 release (CUDA 12)", "nvidia/cuda:12.8.1"
  std::string fix;           // the image to use instead, when knowledge names one ("" otherwise)
};
ImageCuda image_cuda(std::string_view ref);
// nvcr.io/nvidia/<framework>:YY.MM... (pytorch, tritonserver, vllm, ...): a framework image
// whose torch stack is pinned by NVIDIA.
bool is_ngc_framework_image(std::string_view ref);
// The <repo> of an nvcr.io/nvidia/<repo>:<tag> reference (lower case), "" otherwise.
std::string ngc_repo(std::string_view ref);

// CUDA major a package name embeds: "nvidia-cudnn-cu12" -> 12, "cupy-cuda12x" -> 12,
// "jax" with extra "cuda12" -> 12, "jax-cuda13-plugin" -> 13, "sgl-kernel" -> 12 (PyPI
// default build); 0 when the name says nothing.
int cuda_major_of_package(const Requirement& r);

// True when pip on aarch64 Linux (the Spark) never installs this requirement: a PEP 508
// marker that is false there (knowledge/markers.h), or a direct wheel URL built for another platform.
bool requirement_skips_aarch64(const Requirement& r);

}  // namespace sc
