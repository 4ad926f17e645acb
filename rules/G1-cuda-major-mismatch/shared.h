// SPDX-License-Identifier: Apache-2.0
// What G1's checks share: the fix texts, CUDA version words, the unreadable-value note.
#pragma once
#include <string>

#include "core/registry.h"
#include "knowledge/cuda.h"

namespace sc::g1 {

inline const char* kFixIndex = "use the CUDA 13 build: --index-url https://download.pytorch.org/whl/cu130 with torch>=2.9 "
                               "(torch==X+cu130), or uv --torch-backend=cu130";
inline const char* kFixBase = "base the image on CUDA 13 (nvcr.io/nvidia/pytorch:25.11-py3 or nvidia/cuda:13.0.1-*)";
inline const char* kFixCudaImage = "use a CUDA 13 base image, e.g. nvidia/cuda:13.0.1-devel-ubuntu24.04";

inline std::string cuda_text(int v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }  // 124 -> "12.4"
inline std::string cuda_major(int v) { return std::to_string(v / 10); }  // 117 -> "11"
inline bool no_blackwell(int v) { return v <= last_cuda_without_blackwell(); }
inline bool cuda12_build(int v) { return v > 0 && v < first_cuda13(); }

inline void unreadable(Reporter& out, const Location& loc, const std::string& what) {
  out.note({Level::Warning, loc.path, loc.range, "cannot read the CUDA version in " + what + "; G1 did not judge it",
            "unreadable-value"});
}

}  // namespace sc::g1
