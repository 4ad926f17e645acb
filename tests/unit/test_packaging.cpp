// SPDX-License-Identifier: Apache-2.0
// Unit tests for the packaging layer: requirement lines, conda specs, Dockerfile
// parsing (continuations, heredocs, ARG/ENV), image classification, install
// derivation and the project links.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "engine/engine.h"
#include "analysis/project.h"
#include "core/registry.h"
#include "analysis/environments.h"
#include "knowledge/cuda.h"
#include "knowledge/markers.h"
#include "parsers/packaging.h"

using namespace sc;

namespace {

FileFacts parse_as(const std::string& path, const std::string& text, ParseDiag* diag_out = nullptr,
                   SourceFile* keep = nullptr) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  FileInfo fi{path, name, std::string_view(text).substr(0, 4096)};
  const Parser* p = parser_for(fi);
  REQUIRE(p != nullptr);
  SourceFile src(path, text);
  FileFacts f;
  f.kind = p->kind();
  ParseDiag diag;
  p->parse(src, f, diag);
  derive_installs(f);
  if (diag_out) *diag_out = diag;
  if (keep) *keep = src;
  return f;
}

const Requirement* find_pkg(const FileFacts& f, const std::string& name) {
  for (auto& in : f.installs)
    for (auto& r : in.packages)
      if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("PEP 508 requirement lines", "[packaging]") {
  Requirement r;
  REQUIRE(parse_requirement("Torch[Extra1, extra2] == 2.9.1+CU130 ; platform_machine == 'aarch64'", r));
  CHECK(r.name == "torch");
  CHECK(r.extras == std::vector<std::string>{"extra1", "extra2"});
  CHECK(r.specifier == "==2.9.1+CU130");
  CHECK(r.exact_version == "2.9.1+CU130");
  CHECK(r.local_version == "cu130");
  CHECK(r.marker == "platform_machine == 'aarch64'");
  CHECK(r.has_upper_bound);

  Requirement lb;
  REQUIRE(parse_requirement("trl>=0.25", lb));
  CHECK(lb.exact_version.empty());
  CHECK_FALSE(lb.has_upper_bound);

  Requirement wc;
  REQUIRE(parse_requirement("cudf-cu13==25.10.*", wc));
  CHECK(wc.exact_version.empty());
  CHECK(wc.has_upper_bound);

  Requirement u;
  REQUIRE(parse_requirement("torch @ https://download.pytorch.org/whl/cu128/torch-2.7.1%2Bcu128-cp310-cp310-manylinux_2_28_aarch64.whl", u));
  CHECK(u.name == "torch");
  CHECK(u.local_version == "cu128");
  CHECK_FALSE(u.url.empty());

  Requirement n;
  REQUIRE(parse_requirement("unsloth_zoo", n));
  CHECK(n.name == "unsloth-zoo");
  CHECK(n.specifier.empty());
  CHECK_FALSE(parse_requirement("--hash=sha256:abc", n));
  CHECK(normalize_pkg_name("Flash_Attn..X") == "flash-attn-x");
}

TEST_CASE("conda specs", "[packaging]") {
  Requirement a;
  REQUIRE(parse_conda_spec("pytorch-cuda=12.1", a));
  CHECK(a.name == "pytorch-cuda");
  CHECK(a.specifier == "=12.1");
  Requirement b;
  REQUIRE(parse_conda_spec("conda-forge::pytorch=2.5.1=cuda126_py311h", b));
  CHECK(b.name == "pytorch");
  CHECK(b.local_version == "cu126");
  CHECK(b.exact_version == "2.5.1");
  Requirement c;
  REQUIRE(parse_conda_spec("cuda-version>=12.4,<13", c));
  CHECK(c.specifier == ">=12.4,<13");
  CHECK(c.has_upper_bound);
}

TEST_CASE("requirements files: options, continuations, hashes", "[packaging]") {
  ParseDiag diag;
  SourceFile src;
  FileFacts f = parse_as("req/requirements.txt",
                         "# comment\n"
                         "-r base.txt\n"
                         "--constraint=constraints.txt\n"
                         "--extra-index-url https://download.pytorch.org/whl/cu124\n"
                         "torch==2.5.1+cu124 \\\n"
                         "    --hash=sha256:0123\n"
                         "transformers>=4.40  # inline comment\n"
                         "-e ./local_pkg\n"
                         "not a requirement!\n",
                         &diag, &src);
  CHECK(f.kind == FileKind::Requirements);
  REQUIRE(f.installs.size() == 1);
  const Install& in = f.installs[0];
  CHECK(in.tool == Installer::RequirementsFile);
  REQUIRE(in.requirement_files.size() == 1);
  CHECK(in.requirement_files[0].first == "base.txt");
  CHECK(in.requirement_files[0].second.range.line == 2);
  CHECK(in.requirement_files[0].second.range.col == 4);
  REQUIRE(in.constraint_files.size() == 1);
  CHECK(in.constraint_files[0].first == "constraints.txt");
  REQUIRE(in.indexes.size() == 1);
  CHECK(in.indexes[0].role == IndexRole::ExtraIndexUrl);
  CHECK(in.indexes[0].loc.range.line == 4);
  CHECK(in.indexes[0].loc.range.col == 19);
  const Requirement* t = find_pkg(f, "torch");
  REQUIRE(t);
  CHECK(t->hashed);
  CHECK(t->local_version == "cu124");
  CHECK(t->loc.range.line == 5);
  CHECK(t->loc.range.col == 1);
  CHECK(t->loc.range.end_col == 19);
  const Requirement* tr = find_pkg(f, "transformers");
  REQUIRE(tr);
  CHECK(tr->specifier == ">=4.40");
  REQUIRE(diag.notes.size() == 1);
  CHECK(diag.notes[0].range.line == 9);
}

TEST_CASE("requirements file name patterns", "[packaging]") {
  auto kind = [](const std::string& path) {
    std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    const Parser* p = parser_for(FileInfo{path, name, ""});
    return p ? p->kind() : FileKind::Unknown;
  };
  CHECK(kind("requirements.txt") == FileKind::Requirements);
  CHECK(kind("requirements-dev.txt") == FileKind::Requirements);
  CHECK(kind("dev-requirements.txt") == FileKind::Requirements);
  CHECK(kind("constraints.txt") == FileKind::Requirements);
  CHECK(kind("requirements/gpu.txt") == FileKind::Requirements);
  CHECK(kind("requirements.in") == FileKind::Requirements);
  CHECK(kind("notes.txt") != FileKind::Requirements);
  CHECK(kind("MANIFEST.in") != FileKind::Requirements);
  CHECK(kind("Dockerfile") == FileKind::Dockerfile);
  CHECK(kind("docker/train.Dockerfile") == FileKind::Dockerfile);
  CHECK(kind("Dockerfile.spark") == FileKind::Dockerfile);
  CHECK(kind("Containerfile") == FileKind::Dockerfile);
  CHECK(kind("pyproject.toml") == FileKind::Pyproject);
  CHECK(kind("uv.lock") == FileKind::Lockfile);
  CHECK(kind("pylock.toml") == FileKind::Lockfile);
}

TEST_CASE("Dockerfile: ARG-resolved FROM, stages, ENV forms, COPY", "[packaging][dockerfile]") {
  FileFacts f = parse_as("Dockerfile",
                         "ARG REG=nvcr.io/nvidia\n"
                         "ARG TAG=24.12\n"
                         "FROM --platform=linux/arm64 ${REG}/pytorch:${TAG:-25.11}-py3 AS base\n"
                         "ENV A=1 B=\"two words\"\n"
                         "ENV LEGACY some value\n"
                         "COPY requirements.txt constraints.txt /app/\n"
                         "COPY --from=base /x /y\n"
                         "FROM base AS final\n"
                         "FROM nvidia/cuda:$UNSET-base\n");
  REQUIRE(f.images.size() == 3);
  CHECK(f.images[0].ref == "nvcr.io/nvidia/pytorch:24.12-py3");
  CHECK(f.images[0].stage_name == "base");
  CHECK(f.images[0].loc.range.line == 3);
  CHECK(f.images[0].loc.range.col == 29);
  CHECK(f.images[1].from_stage);
  CHECK(f.images[1].parent_stage == 0);
  CHECK(f.images[2].ref == "nvidia/cuda:-base");
  std::map<std::string, std::string> env;
  for (auto& e : f.env)
    if (e.origin == EnvOrigin::Env) env[e.name] = e.value;
  CHECK(env["A"] == "1");
  CHECK(env["B"] == "two words");
  CHECK(env["LEGACY"] == "some value");
  int copies = 0;
  for (auto& r : f.refs)
    if (r.kind == RefKind::Copy) {
      ++copies;
      CHECK(r.dest == "/app/");
      CHECK(r.stage == 0);
    }
  CHECK(copies == 2);
}

TEST_CASE("Dockerfile: continuations, comments inside them, heredocs, installs", "[packaging][dockerfile]") {
  ParseDiag diag;
  FileFacts f = parse_as("Dockerfile",
                         "FROM nvcr.io/nvidia/pytorch:25.11-py3\n"
                         "ENV PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cu130\n"
                         "RUN apt-get update && \\\n"
                         "    # dropped comment\n"
                         "    python3 -m pip install --no-deps \\\n"
                         "      unsloth unsloth_zoo\n"
                         "RUN <<EOF\n"
                         "set -e\n"
                         "uv pip install -U torch --torch-backend=cu130 --override overrides.txt\n"
                         "EOF\n"
                         "RUN [\"pip\", \"install\", \"vllm==0.11.0\"]\n"
                         "RUN conda install -c nvidia -y pytorch-cuda=12.1\n",
                         &diag);
  CHECK(diag.notes.empty());
  REQUIRE(f.installs.size() == 4);
  const Install& a = f.installs[0];
  CHECK(a.tool == Installer::Pip);
  CHECK(a.no_deps);
  CHECK(a.stage == 0);
  REQUIRE(a.indexes.size() == 1);  // from ENV
  CHECK(a.indexes[0].loc.range.line == 2);
  REQUIRE(a.packages.size() == 2);
  CHECK(a.packages[1].name == "unsloth-zoo");
  CHECK(a.packages[1].loc.range.line == 6);
  CHECK(a.packages[1].loc.range.col == 15);
  const Install& b = f.installs[1];
  CHECK(b.tool == Installer::UvPip);
  CHECK(b.upgrade);
  CHECK(b.torch_backend_value == "cu130");
  REQUIRE(b.constraint_files.size() == 1);
  REQUIRE(b.packages.size() == 1);
  CHECK(b.packages[0].loc.range.line == 9);
  CHECK(b.packages[0].loc.range.col == 19);
  const Install& c = f.installs[2];
  REQUIRE(c.packages.size() == 1);
  CHECK(c.packages[0].exact_version == "0.11.0");
  const Install& d = f.installs[3];
  CHECK(d.tool == Installer::Conda);
  REQUIRE(d.packages.size() == 1);
  CHECK(d.packages[0].name == "pytorch-cuda");
  REQUIRE(d.indexes.size() == 1);
  CHECK(d.indexes[0].role == IndexRole::CondaChannel);
}

TEST_CASE("Dockerfile: escape directive and malformed input", "[packaging][dockerfile]") {
  ParseDiag diag;
  FileFacts f = parse_as("Dockerfile",
                         "# escape=`\n"
                         "FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04\n"
                         "RUN pip install `\n"
                         "    torch==2.9.1\n"
                         "FROBNICATE now\n"
                         "RUN <<EOF\n"
                         "pip install x\n",
                         &diag);
  REQUIRE_FALSE(f.installs.empty());
  CHECK(f.installs[0].packages.size() == 1);
  CHECK(f.installs[0].packages[0].loc.range.line == 4);
  int unknown = 0, heredoc = 0;
  for (auto& n : diag.notes) {
    if (n.message.find("unknown instruction") != std::string::npos) ++unknown;
    if (n.message.find("never terminated") != std::string::npos) ++heredoc;
    CHECK(n.message.find("Dockerfile:") != std::string::npos);
  }
  CHECK(unknown == 1);
  CHECK(heredoc == 1);

  ParseDiag d2;
  parse_as("Dockerfile", "RUN pip install torch\n", &d2);
  CHECK(d2.notes.size() == 2);  // RUN before FROM, no FROM
}

TEST_CASE("image classification", "[packaging]") {
  auto ic = image_cuda("nvcr.io/nvidia/pytorch:24.12-py3");
  CHECK(ic.known);
  CHECK(ic.ngc);
  CHECK(ic.major == 12);
  CHECK(ic.minor == 6);
  CHECK(image_cuda("nvcr.io/nvidia/pytorch:25.06-py3").major == 12);
  CHECK(image_cuda("nvcr.io/nvidia/pytorch:25.08-py3").major == 13);
  CHECK(image_cuda("nvcr.io/nvidia/vllm:26.05.post1-py3").major == 13);
  CHECK(image_cuda("nvcr.io/nvidia/tritonserver:24.04-py3").minor == 4);
  CHECK_FALSE(image_cuda("nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6").known);
  CHECK_FALSE(image_cuda("unsloth/unsloth").known);
  auto cu = image_cuda("nvidia/cuda:12.8.1-cudnn-devel-ubuntu24.04");
  CHECK(cu.major == 12);
  CHECK(cu.minor == 8);
  CHECK(image_cuda("nvcr.io/nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04").major == 13);
  CHECK(image_cuda("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel").minor == 4);
  CHECK(image_cuda("lmsysorg/sglang:latest-cu130").major == 13);
  CHECK(image_cuda("nvcr.io/nvidia/rapidsai/notebooks:25.10-cuda13-py3.13").major == 13);
  CHECK(is_ngc_framework_image("nvcr.io/nvidia/pytorch:25.11-py3"));
  CHECK_FALSE(is_ngc_framework_image("nvcr.io/nvidia/cuda:13.0.1-devel-ubuntu24.04"));
  // release tags that do not spell CUDA: knowledge image-release-cuda
  auto old_vllm = image_cuda("vllm/vllm-openai:v0.8.5");
  CHECK(old_vllm.known);
  CHECK((old_vllm.major == 12 && old_vllm.minor == 4));
  CHECK_FALSE(old_vllm.fix.empty());
  CHECK(image_cuda("docker.io/vllm/vllm-openai:v0.7.3.post1").minor == 4);
  CHECK_FALSE(image_cuda("vllm/vllm-openai:v0.9.0").known);
  CHECK_FALSE(image_cuda("vllm/vllm-openai:latest").known);
  CHECK_FALSE(image_cuda("vllm/vllm-openai:v0.8.5x").known);
  CHECK_FALSE(image_cuda("someone/vllm-openai:v0.8.5").known);
}

TEST_CASE("CUDA tags of URLs and package names", "[packaging]") {
  CHECK(cuda_of_url("https://download.pytorch.org/whl/cu124") == 124);
  CHECK(cuda_of_url("https://download.pytorch.org/whl/nightly/cu130") == 130);
  CHECK(cuda_of_url("https://wheels.vllm.ai/0.20.1/cu130") == 130);
  CHECK(cuda_of_url("https://download.pytorch.org/whl/cu118/torch_stable.html") == 118);
  CHECK(cuda_of_url("https://pypi.org/simple") == -1);
  CHECK(cuda_of_url("https://data.pyg.org/whl/torch-2.1.0+cu121.html") == 121);  // the build in the page's name
  CHECK(cuda_of_url("https://data.pyg.org/whl/torch-2.9.0+cu130.html") == 130);
  CHECK(cuda_of_url("https://example.org/whl/torch-2.1.0+cpu.html") == -1);
  CHECK(cuda_of_url("https://download.pytorch.org/whl/cpu") == -1);
  auto major = [](const std::string& spec) {
    Requirement r;
    parse_requirement(spec, r);
    return cuda_major_of_package(r);
  };
  CHECK(major("nvidia-cudnn-cu12==9.10.2.21") == 12);
  CHECK(major("nvidia-cudnn-cu13") == 13);
  CHECK(major("nvidia-cufft==12.0.0.61") == 0);
  CHECK(major("cupy-cuda12x>=13") == 12);
  CHECK(major("cupy-cuda13x") == 13);
  CHECK(major("jax[cuda12]") == 12);
  CHECK(major("jax[cuda13]==0.7.2") == 13);
  CHECK(major("jax-cuda12-plugin") == 12);
  CHECK(major("tensorrt-cu12-libs") == 12);
  CHECK(major("sgl-kernel") == 12);
  CHECK(major("transformers") == 0);
  CHECK(major("jax[cuda120]") == 0);
}

TEST_CASE("CUDA numbers that cannot be read never throw", "[packaging]") {
  CHECK(cuda_tag("cu99999999999").unreadable);
  CHECK(cuda_tag("cu99999999999").value == -1);
  CHECK(cuda_tag("cu1234").unreadable);
  CHECK(cuda_tag("cu130").value == 130);
  CHECK(cuda_tag("cu12").value == 120);
  CHECK_FALSE(cuda_tag("cuda").unreadable);
  CHECK_FALSE(digits_value("99999999999"));
  CHECK(digits_value("42") == 42);
  CHECK_FALSE(digits_value(""));
  ImageCuda odd = image_cuda("nvcr.io/nvidia/pytorch:24.10-py3::x");
  CHECK(odd.unreadable);
  CHECK_FALSE(odd.known);
  CHECK(image_cuda("nvidia/cuda:99999999999.1-base").known == false);
  CHECK(cuda_of_url("https://download.pytorch.org/whl/cu99999999999") == -1);
}

TEST_CASE("aarch64 exclusion: markers and wheel tags from knowledge/platforms.yaml", "[packaging]") {
  auto skips = [](const std::string& spec) {
    Requirement r;
    parse_requirement(spec, r);
    return requirement_skips_aarch64(r);
  };
  CHECK(skips("flash-attn; platform_machine == 'x86_64'"));
  CHECK(skips("flash-attn; platform_system != 'Linux'"));
  CHECK_FALSE(skips("flash-attn; platform_machine == 'aarch64'"));
  // evaluated, not matched: the aarch64 alternative installs on the Spark
  CHECK_FALSE(skips("torch==2.5.1+cu124 ; platform_machine == \"x86_64\" or platform_machine == \"aarch64\""));
  CHECK(skips("torch==2.5.1+cu124 ; platform_machine == \"x86_64\" and python_version >= \"3.9\""));
  CHECK(skips("torch @ https://example.org/torch-2.9.1-cp312-cp312-manylinux_2_28_x86_64.whl"));
  CHECK_FALSE(skips("torch @ https://example.org/torch-2.9.1-cp312-cp312-manylinux_2_28_aarch64.whl"));
}

TEST_CASE("PEP 508 marker parser: or/and/parentheses/in", "[packaging][markers]") {
  auto m = parse_marker("platform_machine == 'x86_64' or (python_version < \"3.12\" and 'linux' in sys_platform)");
  REQUIRE(m);
  CHECK(m->kind == MarkerExpr::Kind::Or);
  REQUIRE(m->terms.size() == 2);
  CHECK(m->terms[0].left == "platform_machine");
  CHECK(m->terms[0].left_var);
  CHECK(m->terms[0].right == "x86_64");
  CHECK_FALSE(m->terms[0].right_var);
  const MarkerExpr& inner = m->terms[1];
  CHECK(inner.kind == MarkerExpr::Kind::And);
  REQUIRE(inner.terms.size() == 2);
  CHECK(inner.terms[0].op == "<");
  CHECK(inner.terms[1].op == "in");
  CHECK(inner.terms[1].right == "sys_platform");
  CHECK(inner.terms[1].right_var);
  auto n = parse_marker("platform.machine not in 'x86_64 AMD64'");  // legacy dotted name
  REQUIRE(n);
  CHECK(n->left == "platform_machine");
  CHECK(n->op == "not in");
  auto a = parse_marker("a == '1' and b == '2' or c == '3'");  // `and` binds tighter
  REQUIRE(a);
  CHECK(a->kind == MarkerExpr::Kind::Or);
  CHECK(a->terms[0].kind == MarkerExpr::Kind::And);
  for (std::string bad : {"", "platform_machine", "platform_machine == ", "(os_name == 'posix'", "os_name = 'posix'",
                          "os_name == 'posix' or", "os_name == 'posix\"", "os_name not 'posix'", "and == 'x'"})
    CHECK_FALSE(parse_marker(bad));
  CHECK_FALSE(parse_marker(std::string(200, '(') + "os_name == 'posix'" + std::string(200, ')')));  // too deep
  CHECK(parse_marker(std::string(20, '(') + "os_name == 'posix'" + std::string(20, ')')));
}

TEST_CASE("PEP 508 markers on the Spark: three-valued, PEP 440 versions", "[packaging][markers]") {
  auto spark = [](std::string_view m) { return evaluate_marker(m, spark_marker_values()); };
  CHECK(spark("platform_machine == 'aarch64'") == MarkerResult::True);
  CHECK(spark("platform_machine == \"x86_64\" or platform_machine == \"aarch64\"") == MarkerResult::True);
  CHECK(spark("platform_machine == 'x86_64'") == MarkerResult::False);
  CHECK(spark("platform_machine != 'aarch64'") == MarkerResult::False);
  CHECK(spark("sys_platform == 'win32' or platform_system == 'Darwin'") == MarkerResult::False);
  CHECK(spark("platform_system == 'Linux' and os_name == 'posix'") == MarkerResult::True);
  CHECK(spark("'x86' in platform_machine") == MarkerResult::False);
  CHECK(spark("platform_machine in 'x86_64 AMD64'") == MarkerResult::False);
  CHECK(spark("platform_machine not in 'x86_64 AMD64'") == MarkerResult::True);
  // unknown values (python_version, extra) may apply, unless a known term decides
  CHECK(spark("python_version < '3.12'") == MarkerResult::Unknown);
  CHECK(spark("extra == 'gpu'") == MarkerResult::Unknown);
  CHECK(spark("python_version < '3.12' and platform_machine == 'x86_64'") == MarkerResult::False);
  CHECK(spark("python_version < '3.12' or platform_machine == 'aarch64'") == MarkerResult::True);
  CHECK(spark("python_version < '3.12' or platform_machine == 'x86_64'") == MarkerResult::Unknown);
  CHECK(spark("platform_machine = 'x86_64'") == MarkerResult::Unknown);  // unparseable
  CHECK(spark("") == MarkerResult::True);
  MarkerValues py = spark_marker_values();
  py["python_version"] = "3.12";
  py["python_full_version"] = "3.12.3";
  auto with = [&](std::string_view m) { return evaluate_marker(m, py); };
  CHECK(with("python_version >= '3.9'") == MarkerResult::True);
  CHECK(with("python_version < '3.10'") == MarkerResult::False);  // 3.12 > 3.10 (not string order)
  CHECK(with("python_version == '3.12.0'") == MarkerResult::True);
  CHECK(with("python_full_version == '3.12.*'") == MarkerResult::True);
  CHECK(with("python_full_version != '3.11.*'") == MarkerResult::True);
  CHECK(with("python_full_version ~= '3.12.1'") == MarkerResult::True);
  CHECK(with("python_full_version ~= '3.11.1'") == MarkerResult::False);
  CHECK(with("python_version > '3.8' and platform_machine == 'aarch64'") == MarkerResult::True);
  CHECK(marker_false_on_spark("platform_machine == 'x86_64'"));
  CHECK_FALSE(marker_false_on_spark("python_version < '3.12'"));
}

TEST_CASE("pipx installs are pip installs into pipx's own venv", "[packaging]") {
  FileFacts f = parse_as("setup.sh",
                         "pipx install --python python3.12 --suffix=-dev vllm\n"
                         "pipx inject --pip-args='--no-deps --index-url https://download.pytorch.org/whl/cu130' myenv peft==0.17.1\n"
                         "pipx list\n");
  REQUIRE(f.installs.size() == 2);
  REQUIRE(f.installs[0].packages.size() == 1);  // not python3.12, not -dev
  CHECK(f.installs[0].packages[0].name == "vllm");
  REQUIRE(f.installs[1].packages.size() == 1);  // not the venv name
  CHECK(f.installs[1].packages[0].name == "peft");
  CHECK(f.installs[1].no_deps);
  REQUIRE(f.installs[1].indexes.size() == 1);
  CHECK(f.installs[1].indexes[0].role == IndexRole::IndexUrl);
}

TEST_CASE("install derivation from commands", "[packaging]") {
  FileFacts f = parse_as("setup.sh",
                         "#!/bin/bash\n"
                         "export UV_TORCH_BACKEND=auto\n"
                         "sudo -H PIP_NO_DEPS=1 pip3.12 install -qU 'trl>=0.25' -c constraints.txt\n"
                         "python3.11 -m pip install -r requirements.txt --index-url https://download.pytorch.org/whl/cu130\n"
                         "uv pip install unsloth\n"
                         "uv add \"transformers==4.57.1\"\n"
                         "mamba install -y cudatoolkit=11.8\n"
                         "pip download torch\n");
  REQUIRE(f.installs.size() == 5);
  CHECK(f.installs[0].upgrade);
  REQUIRE(f.installs[0].constraint_files.size() == 1);
  CHECK(f.installs[0].packages[0].name == "trl");
  CHECK(f.installs[1].requirement_files[0].first == "requirements.txt");
  CHECK(f.installs[1].indexes[0].role == IndexRole::IndexUrl);
  CHECK(f.installs[2].tool == Installer::UvPip);
  CHECK(f.installs[2].torch_backend);  // from the export
  CHECK(f.installs[3].tool == Installer::UvAdd);
  CHECK(f.installs[4].tool == Installer::Conda);
}

TEST_CASE("project links: COPY + pip install -r, includes, cycles", "[packaging][project]") {
  Project p;
  auto add = [&](const std::string& path, const std::string& text) {
    auto pf = std::make_unique<ParsedFile>();
    pf->facts = parse_as(path, text);
    pf->src = SourceFile(path, text);
    p.files.push_back(std::move(pf));
    return p.files.back().get();
  };
  const ParsedFile* df = add("docker/Dockerfile",
                             "FROM nvcr.io/nvidia/pytorch:25.11-py3 AS base\n"
                             "COPY requirements/ /opt/req/\n"
                             "FROM base\n"
                             "RUN pip install -r /opt/req/main.txt\n");
  const ParsedFile* main = add("docker/requirements/main.txt", "-r extra.txt\n-r missing.txt\ntransformers\n");
  const ParsedFile* extra = add("docker/requirements/extra.txt", "-r main.txt\ntrl\n");
  p.link();
  auto ctx = p.contexts_for(*extra);
  REQUIRE(ctx.size() == 1);
  CHECK(ctx[0].dockerfile == df);
  CHECK(ctx[0].stage == 1);
  REQUIRE(ctx[0].image);
  CHECK(ctx[0].image->ref == "nvcr.io/nvidia/pytorch:25.11-py3");
  CHECK(ctx[0].via.range.line == 4);
  CHECK(p.included_by.at(main).size() == 1);
  int missing = 0, cycle = 0;
  for (auto& n : p.notes) {
    if (n.id == "missing-include") ++missing;
    if (n.id == "include-cycle") ++cycle;
  }
  CHECK(missing == 1);
  CHECK(cycle == 1);
  CHECK(p.resolve(*main, "../requirements/extra.txt") == extra);
  CHECK(p.find("./docker//Dockerfile") == df);
}

TEST_CASE("conda environment files", "[packaging]") {
  FileFacts f = parse_as("environment.yml",
                         "name: train\n"
                         "channels:\n"
                         "  - nvidia\n"
                         "dependencies:\n"
                         "  - pytorch-cuda=12.1\n"
                         "  - \"cuda-version>=12.4,<13\"\n"
                         "  - pip:\n"
                         "      - nvidia-cudnn-cu12==9.1.0.70\n");
  CHECK(f.kind == FileKind::CondaEnv);
  REQUIRE(f.installs.size() == 2);
  CHECK(f.installs[0].tool == Installer::CondaEnvFile);
  REQUIRE(f.installs[0].packages.size() == 2);
  CHECK(f.installs[0].packages[0].loc.range.line == 5);
  CHECK(f.installs[0].packages[0].loc.range.col == 5);
  CHECK(f.installs[0].indexes.size() == 1);
  REQUIRE(f.installs[1].packages.size() == 1);
  CHECK(f.installs[1].packages[0].name == "nvidia-cudnn-cu12");
}

TEST_CASE("pyproject and lock files", "[packaging]") {
  FileFacts f = parse_as("pyproject.toml",
                         "[project]\n"
                         "name = \"x\"\n"
                         "dependencies = [\"cupy-cuda12x>=13\", \"jax[cuda12]\"]\n"
                         "[[tool.uv.index]]\n"
                         "url = \"https://download.pytorch.org/whl/cu130\"\n");
  REQUIRE(f.installs.size() == 1);
  REQUIRE(f.installs[0].packages.size() == 2);
  CHECK(f.installs[0].packages[1].loc.range.line == 3);
  CHECK(f.installs[0].packages[1].loc.range.col == 37);
  REQUIRE(f.installs[0].indexes.size() == 1);
  CHECK(f.installs[0].indexes[0].role == IndexRole::UvIndex);
  CHECK_FALSE(f.config.empty());
  FileFacts l = parse_as("uv.lock", "version = 1\n[[package]]\nname = \"Torch\"\nversion = \"2.9.1+cu130\"\n");
  CHECK(l.lockfile);
  CHECK(l.locked["torch"] == "2.9.1+cu130");
}

TEST_CASE("NeMo framework tags: CUDA 12 before 25.08, unknown after", "[packaging]") {
  CHECK(is_ngc_framework_image("nvcr.io/nvidia/nemo:24.07"));
  ImageCuda old = image_cuda("nvcr.io/nvidia/nemo:25.01");
  CHECK(old.known);
  CHECK(old.ngc);
  CHECK(old.major == 12);
  CHECK(old.how.find("earlier NGC PyTorch release") != std::string::npos);
  CHECK_FALSE(image_cuda("nvcr.io/nvidia/nemo:25.09").known);
  CHECK(image_cuda("nvcr.io/nvidia/nemo:latest").unreadable == image_cuda("nvcr.io/nvidia/pytorch:latest").unreadable);
}

TEST_CASE("Dockerfile: ENV of a parent stage applies to installs in a child stage", "[packaging][dockerfile]") {
  FileFacts f = parse_as("Dockerfile",
                         "FROM nvidia/cuda:13.0.1-devel-ubuntu24.04 AS base\n"
                         "ENV PIP_INDEX_URL=https://download.pytorch.org/whl/cu130\n"
                         "ARG ONLY_HERE=1\n"
                         "FROM base AS train\n"
                         "RUN pip install torch==2.9.1\n");
  REQUIRE(f.installs.size() == 1);
  CHECK(f.installs[0].stage == 1);
  REQUIRE(f.installs[0].indexes.size() == 1);
  CHECK(f.installs[0].indexes[0].loc.range.line == 2);
}

TEST_CASE("Dockerfile: exec-form sh -c bodies are parsed as shell", "[packaging][dockerfile]") {
  FileFacts f = parse_as("Dockerfile",
                         "FROM python:3.12\n"
                         "RUN [\"/bin/sh\", \"-c\", \"pip install --no-deps unsloth==2025.11.1\"]\n"
                         "ENTRYPOINT [\"python\", \"-m\", \"pip\", \"install\", \"torch\"]\n");
  REQUIRE(f.installs.size() == 2);
  REQUIRE(f.installs[0].packages.size() == 1);
  CHECK(f.installs[0].no_deps);
  CHECK(f.installs[0].packages[0].loc.range.line == 2);
  CHECK(f.installs[0].packages[0].loc.range.col == 46);
  CHECK(f.installs[1].packages[0].name == "torch");
}

namespace {
// rule -> levels of its findings when linting one fixture case.
std::map<std::string, std::set<std::string>> levels_of(const std::string& fixture) {
  LintOptions opt;
  std::string path = std::string(SC_SOURCE_DIR) + "/fixtures/" + fixture;
  opt.paths = {path};
  opt.root = path.substr(0, path.rfind('/'));
  opt.no_ignore = true;
  LintResult r = run_lint(opt);
  std::map<std::string, std::set<std::string>> out;
  for (auto& f : r.findings) out[f.rule].insert(level_name(f.level));
  return out;
}
}  // namespace

TEST_CASE("G1/G9 severities", "[packaging][rules]") {
  using S = std::set<std::string>;
  CHECK(levels_of("G1/requirements-cu124.txt")["G1"] == S{"error"});
  CHECK(levels_of("G1/requirements-cu128-stack.txt")["G1"] == S{"warning"});
  CHECK(levels_of("G1/ngc-24-12.Dockerfile")["G1"] == S{"error"});
  CHECK(levels_of("G1/requirements-cu13-torch-cu12-lib.txt")["G1"] == S{"error"});
  auto plain = levels_of("G1/plain-torch.sh");  // unpinned: what PyPI gives on aarch64 is not fixed
  CHECK(plain["G1"] == S{"note"});
  CHECK(plain["G9"] == S{"warning"});
  CHECK(levels_of("G1/pypi-torch-versions.sh")["G1"] == S{"warning"});  // torch==2.10.0: CPU-only
  CHECK(levels_of("G1/sgl-kernel.sh")["G1"] == S{"error"});
  CHECK(levels_of("G1/cu13-on-cuda12-base.Dockerfile")["G1"] == S{"error", "warning"});
  CHECK(levels_of("G1/ngc-cuda13-ok.Dockerfile").empty());
}

TEST_CASE("Dockerfile: <<- heredoc with a quoted delimiter, stdin heredoc not parsed as shell", "[packaging][dockerfile]") {
  ParseDiag diag;
  FileFacts f = parse_as("Dockerfile",
                         "FROM python:3.12\n"
                         "RUN <<-'END'\n"
                         "\tpip install --no-deps peft==0.17.1\n"
                         "\tEND\n"
                         "RUN python3 <<EOF\n"
                         "print('pip install torch')\n"
                         "EOF\n"
                         "RUN pip install accelerate==1.1.1\n",
                         &diag);
  CHECK(diag.notes.empty());
  REQUIRE(f.installs.size() == 2);
  CHECK(f.installs[0].packages[0].name == "peft");
  CHECK(f.installs[0].packages[0].loc.range.line == 3);
  CHECK(f.installs[1].packages[0].name == "accelerate");
  CHECK(f.installs[1].packages[0].loc.range.line == 8);
}

TEST_CASE("one reading of pip options for commands, requirements files and conda's pip list", "[packaging]") {
  CHECK(pip_option("--index-url") == PipOption::IndexUrl);
  CHECK(pip_option("--default-index") == PipOption::IndexUrl);  // uv
  CHECK(pip_option("--index") == PipOption::ExtraIndexUrl);     // uv
  CHECK(pip_option("--no-dependencies") == PipOption::NoDeps);
  CHECK(pip_option("--target") == PipOption::OtherValued);
  CHECK_FALSE(pip_option("--no-such-option"));
  CHECK_FALSE(pip_option_valued(PipOption::Upgrade));
  CHECK(pip_option_valued(PipOption::Editable));
  const char* spellings[] = {"--no-deps", "--index-url https://download.pytorch.org/whl/cu130", "-e ./local_pkg"};
  for (const char* form : spellings) {
    INFO(form);
    std::string opt = form;
    FileFacts cmd = parse_as("setup.sh", "pip install " + opt + " trl\n");
    FileFacts req = parse_as("requirements.txt", opt + "\ntrl\n");
    FileFacts env = parse_as("environment.yml", "channels: [nvidia]\ndependencies:\n  - pip:\n      - " + opt + "\n      - trl\n");
    REQUIRE(cmd.installs.size() == 1);
    REQUIRE(req.installs.size() == 1);
    REQUIRE(env.installs.size() == 2);  // the conda install, then its pip list
    for (const FileFacts* f : {&req, &env}) {
      const Install& a = cmd.installs[0];
      const Install& b = f->installs.back();
      CHECK(a.no_deps == b.no_deps);
      CHECK(a.local_project == b.local_project);
      REQUIRE(a.indexes.size() == b.indexes.size());
      for (size_t i = 0; i < a.indexes.size(); ++i) CHECK(a.indexes[i].role == b.indexes[i].role);
    }
  }
}
