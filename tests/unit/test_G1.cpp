// SPDX-License-Identifier: Apache-2.0
// G1 sub-checks, one test each (rules/G1-cuda-major-mismatch/G1.md "What it catches").
#include <catch2/catch.hpp>

#include "rule_check.h"

using sc::test::MemProject;

TEST_CASE("G1 index_variables: an index variable pointing at cu126 or older", "[G1]") {
  MemProject m{{"setup.sh", "export PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cu124\n"}};
  auto out = m.run("G1");
  CHECK(out.count("setup.sh", 1, "PIP_EXTRA_INDEX_URL points pip/uv at CUDA 12.4") == 1);
}

TEST_CASE("G1 index_urls: cu126 index is an error, cu128 a warning", "[G1]") {
  MemProject m{{"requirements.txt",
                "--extra-index-url https://download.pytorch.org/whl/cu124\n"
                "--find-links https://download.pytorch.org/whl/cu128\n"}};
  auto out = m.run("G1");
  REQUIRE(out.count("requirements.txt", 1, "serves CUDA 12.4") == 1);
  REQUIRE(out.count("requirements.txt", 2, "serves CUDA 12.8") == 1);
  for (const auto& f : out.findings)
    CHECK(f.level == (f.loc.range.line == 1 ? sc::Level::Error : sc::Level::Warning));
}

TEST_CASE("G1 local_version: +cu124 is an error; an unreadable tag is a note", "[G1]") {
  MemProject m{{"requirements.txt", "torch==2.5.1+cu99999999999\ntorchvision==0.20.1+cu124\n"}};
  auto out = m.run("G1");
  CHECK(out.count("requirements.txt", 1) == 0);
  CHECK(out.count("requirements.txt", 2, "is a CUDA 12.4 build") == 1);
  REQUIRE(out.notes.size() == 1);
  CHECK(out.notes[0].path == "requirements.txt");
  CHECK(out.notes[0].range.line == 1);
  CHECK(out.notes[0].id == "unreadable-value");
}

TEST_CASE("G1 cuda_meta_pin: a CUDA meta package pinned below 13", "[G1]") {
  MemProject m{{"requirements.txt", "cuda-toolkit==12.4.1\ncuda-toolkit>=13.0\n"}};
  auto out = m.run("G1");
  CHECK(out.count("requirements.txt", 1, "pins the environment to CUDA 12.4") == 1);
  CHECK(out.count("requirements.txt", 2) == 0);
}

TEST_CASE("G1 cuda11_name: a package name embedding CUDA 11", "[G1]") {
  MemProject m{{"requirements.txt", "cupy-cuda11x==13.3.0\ncupy-cuda13x==13.6.0\n"}};
  auto out = m.run("G1");
  CHECK(out.count("requirements.txt", 1, "is a CUDA 11 build") == 1);
  CHECK(out.count("requirements.txt", 2) == 0);
}

TEST_CASE("G1 image: old CUDA and pre-25.08 NGC images, smoke tests and CUDA 13 left alone", "[G1]") {
  MemProject m{{"Dockerfile",
                "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS a\nRUN make\n"
                "FROM nvcr.io/nvidia/pytorch:24.12-py3 AS b\nRUN make\n"
                "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04 AS c\nRUN make\n"
                "FROM nvidia/cuda:12.0-base-ubuntu20.04 AS smoke\nRUN nvidia-smi\n"
                "FROM nvcr.io/nvidia/pytorch:25.11-py3\nRUN make\n"}};
  auto out = m.run("G1");
  CHECK(out.count("Dockerfile", 1, "no Blackwell") == 1);
  CHECK(out.count("Dockerfile", 3, "NGC containers before 25.08") == 1);
  CHECK(out.count("Dockerfile", 5, "runs on the Spark through sm_120") == 1);
  CHECK(out.count("Dockerfile", 7) == 0);
  CHECK(out.count("Dockerfile", 9) == 0);
}

TEST_CASE("G1 image: an unreadable NGC tag is a note", "[G1]") {
  MemProject m{{"Dockerfile", "FROM nvcr.io/nvidia/pytorch:24.10-py3::x\nRUN make\n"}};
  auto out = m.run("G1");
  CHECK(out.findings.empty());
  REQUIRE(out.notes.size() == 1);
  CHECK(out.notes[0].range.line == 1);
}

TEST_CASE("G1 image: an Image fact of a non-Dockerfile file is judged", "[G1]") {
  MemProject m{{"run.sh", "echo start\n"}};
  sc::Image im;
  im.ref = "nvcr.io/nvidia/pytorch:24.12-py3";
  im.loc.path = "run.sh";
  im.loc.range.line = 1;
  im.loc.range.col = 1;
  m.p.own(m.p.files[0].get())->facts.edit().images.push_back(im);
  m.p.link();
  auto out = m.run("G1");
  CHECK(out.count("run.sh", 1, "NGC containers before 25.08") == 1);
}

TEST_CASE("G1 cu13_run_on_cuda12_image: a cu130 index on a CUDA 12 base image", "[G1]") {
  MemProject m{{"Dockerfile",
                "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04\n"
                "RUN pip install flashinfer-python==0.5.3 --index-url https://download.pytorch.org/whl/cu130\n"},
               // a CUDA 13 torch brings libcudart.so.13 as pip wheels: nothing is missing there
               {"torch/Dockerfile",
                "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04\n"
                "RUN pip install torch==2.9.1 --index-url https://download.pytorch.org/whl/cu130\n"}};
  auto out = m.run("G1");
  CHECK(out.count("Dockerfile", 2, "CUDA 13 wheels") == 1);
  CHECK(out.count("torch/Dockerfile", 2, "CUDA 13 wheels") == 0);
}

TEST_CASE("G1 cuda12_library: a cu12 library next to CUDA 13 torch, sgl-kernel, alone", "[G1]") {
  MemProject m{{"a.sh", "pip install torch==2.9.1+cu130 nvidia-cudnn-cu12==9.1.0\n"},
               {"b.sh", "pip install sgl-kernel==0.3.1\n"},
               {"c.sh", "pip install nvidia-nccl-cu12==2.21.5\n"}};
  auto out = m.run("G1");
  CHECK(out.count("a.sh", 1, "in the same environment as torch==2.9.1+cu130") == 1);
  CHECK(out.count("b.sh", 1, "sgl-kernel from the default index") == 1);
  CHECK(out.count("c.sh", 1, "nvidia-nccl-cu12 is a CUDA 12 build: the Spark's host stack") == 1);
}

TEST_CASE("G1 cuda13_package_on_cuda12_image: a -cu13 package on a CUDA 12 image", "[G1]") {
  MemProject m{{"Dockerfile",
                "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04\nRUN pip install nvidia-nccl-cu13==2.28.9\n"}};
  auto out = m.run("G1");
  CHECK(out.count("Dockerfile", 2, "is a CUDA 13 build installed on a CUDA 12 base image") == 1);
}

TEST_CASE("G1 default_index_torch: torch from PyPI outside NGC, not inside", "[G1]") {
  MemProject m{{"setup.sh", "pip install torch==2.9.1\n"},
               {"Dockerfile", "FROM nvcr.io/nvidia/pytorch:25.11-py3\nRUN pip install torch==2.9.1\n"}};
  auto out = m.run("G1");
  CHECK(out.count("setup.sh", 1, "torch from the default package index") == 1);
  CHECK(out.count("Dockerfile", 2, "torch from the default package index") == 0);
}

TEST_CASE("G1 cuda_meta_pin: huge version numbers are skipped, not overflowed", "[G1]") {
  MemProject m{{"requirements.txt", "cuda-toolkit==2147483647.1\ncuda-toolkit==12.2147483647\ncuda-toolkit<12.0\n"}};
  auto out = m.run("G1");
  CHECK(out.count("requirements.txt", 1) == 0);
  CHECK(out.count("requirements.txt", 2) == 0);
  CHECK(out.count("requirements.txt", 3, "pins the environment to CUDA 11.9") == 1);
}

TEST_CASE("G1 index_urls: a URL held in ARG/ENV/a variable is reported where it is written", "[G1]") {
  MemProject m{{"Dockerfile",
                "FROM ubuntu:24.04\n"
                "ARG TORCH_INDEX=https://download.pytorch.org/whl/cu121\n"
                "RUN pip install torch==2.5.1 --index-url ${TORCH_INDEX}\n"},
               {"install.sh", "IDX=https://download.pytorch.org/whl/cu118\npip install torch --index-url \"$IDX\"\n"},
               {"direct.sh", "pip install torch --index-url https://download.pytorch.org/whl/cu124\n"}};
  auto out = m.run("G1");
  REQUIRE(out.count("Dockerfile", 2, "serves CUDA 12.1") == 1);
  CHECK(out.count("Dockerfile", 3) == 0);
  for (const auto& f : out.findings)
    if (f.loc.path == "Dockerfile") {
      REQUIRE_FALSE(f.related.empty());
      CHECK(f.related[0].loc.range.line == 3);
      CHECK(f.related[0].message.find("$TORCH_INDEX") != std::string::npos);
    }
  CHECK(out.count("install.sh", 1, "serves CUDA 11.8") == 1);
  CHECK(out.count("install.sh", 2) == 0);
  CHECK(out.count("direct.sh", 1, "serves CUDA 12.4") == 1);  // written on the install line itself
}

TEST_CASE("G1 markers: evaluated as PEP 508 on aarch64 Linux", "[G1]") {
  MemProject m{{"requirements.txt",
                "torch==2.5.1+cu124 ; platform_machine == \"x86_64\" or platform_machine == \"aarch64\"\n"
                "torchvision==0.20.1+cu124 ; platform_machine == \"x86_64\"\n"
                "torchaudio==2.5.1+cu124 ; python_version < \"3.13\"\n"
                "xformers==0.0.28.post3+cu124 ; python_version < \"3.13\" and sys_platform == \"win32\"\n"}};
  auto out = m.run("G1");
  CHECK(out.count("requirements.txt", 1, "is a CUDA 12.4 build") == 1);
  CHECK(out.count("requirements.txt", 2) == 0);
  CHECK(out.count("requirements.txt", 3, "is a CUDA 12.4 build") == 1);  // depends only on an unknown value
  CHECK(out.count("requirements.txt", 4) == 0);
}

TEST_CASE("G1 other platforms: by path segment and by base image", "[G1]") {
  MemProject m{{"requirements-windows.txt", "torch==2.5.1+cu121\n"},
               {"Dockerfile.rocm", "FROM rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0\n"
                                   "RUN pip install nvidia-cudnn-cu11 torch\n"},
               {"Dockerfile.npu", "FROM swr.cn-south-1.myhuaweicloud.com/ascendhub/cann:8.3.rc1-910b-ubuntu22.04-py3.11\n"
                                  "RUN pip install torch==2.5.1+cu121\n"},
               {"Dockerfile", "FROM ubuntu:24.04\nRUN pip install torch==2.5.1+cu121\n"}};
  auto out = m.run("G1");
  CHECK(out.lines("requirements-windows.txt").empty());
  CHECK(out.lines("Dockerfile.rocm").empty());
  CHECK(out.lines("Dockerfile.npu").empty());
  CHECK(out.count("Dockerfile", 2, "is a CUDA 12.1 build") == 1);  // the near miss: a Spark install
}

TEST_CASE("G1 default_index_torch: an index behind an empty ARG is unknown, not the default", "[G1]") {
  MemProject m{{"Dockerfile",
                "FROM ubuntu:24.04\n"
                "ARG TORCH_INDEX_URL=\"\"\n"
                "RUN uv pip install --index-url \"$TORCH_INDEX_URL\" torch==2.6.0\n"
                "RUN uv pip install torch==2.6.0\n"}};
  auto out = m.run("G1");
  CHECK(out.count("Dockerfile", 3) == 0);
  CHECK(out.count("Dockerfile", 4, "default package index") == 1);
}
