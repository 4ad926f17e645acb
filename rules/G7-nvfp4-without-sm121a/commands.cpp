// SPDX-License-Identifier: Apache-2.0
// G7 evidence, commands: kernel builds and their arch flags, NVFP4 uses on command lines.
#include "rules/G7-nvfp4-without-sm121a/evidence.h"
#include "rules/G7-nvfp4-without-sm121a/evidence_parts.h"

#include <algorithm>
#include <cctype>

#include "core/path_names.h"
#include "core/registry.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "query/commands.h"
#include "query/packages.h"
#include "query/project.h"

namespace sc::g7 {

using knowledge::Entry;
using knowledge::table;

// "CMAKE_CUDA_ARCHITECTURES=121" of "-DCMAKE_CUDA_ARCHITECTURES:STRING=121" as (name, value);
// empty without `=`.
std::pair<std::string, std::string> definition(const std::string& word) {
  std::string assign = starts_with(word, "-D") && word.size() > 2 ? word.substr(2) : word;
  size_t eq = assign.find('=');
  if (eq == std::string::npos) return {};
  std::string var = assign.substr(0, eq);
  return {var.substr(0, var.find(':')), assign.substr(eq + 1)};
}

// A cmake line that selects a project adding the `a` to a plain 12X itself (knowledge
// arch-suffixing-builds: llama.cpp's -DGGML_CUDA=ON): that project's name, else "".
static std::string suffixing_build(const Command& c) {
  if (base_name(c.argv[0].text) != "cmake") return "";
  static const std::set<std::string> on = {"on", "1", "true", "yes", "y"};
  for (const Word& w : c.argv) {
    auto [var, value] = definition(w.text);
    const Entry* e = var.empty() ? nullptr : table("arch-suffixing-builds").find(var);
    if (e && on.count(lower(value))) return e->get("project");
  }
  return "";
}

// "-DCMAKE_CUDA_ARCHITECTURES=121", "-DX:STRING=...", "NVCC_GENCODE=..."; in "-D X=Y" the
// next word is read on its own turn.
static void cmake_assignment(const Word& w, const std::string& suffixed_by, Evidence& ev) {
  auto [var, value] = definition(w.text);
  if (!var.empty()) ev.arch_setting(var, value, w.loc, starts_with(w.text, "-D"), suffixed_by);
}

// nvcc: -gencode arch=...,code=..., -gencode=..., -arch=sm_121, --gpu-architecture sm_121
static void nvcc_flags(const Command& c, size_t i, Evidence& ev) {
  const std::string& t = c.argv[i].text;
  const Word* next = i + 1 < c.argv.size() ? &c.argv[i + 1] : nullptr;
  static const std::vector<std::string> flags = table("nvcc-arch-flags").values();
  for (const std::string& f : flags) {
    std::string value;
    Location at = c.argv[i].loc;  // the flag and its value
    if (t == f && next && next->resolved) {
      value = next->text;
      at.range.end_line = next->loc.range.end_line, at.range.end_col = next->loc.range.end_col;
    } else if (starts_with(t, f + "=")) {
      value = t.substr(f.size() + 1);
    } else {
      continue;
    }
    ev.arch_argument(c.argv[i].loc, f + " " + value, value, f, &at);
  }
}

// A client of a running server: an http(s) URL after a flag of knowledge client-endpoint-flags
// (`--endpoint http://localhost:8000/v1`, `--base-url=http://...`), or an OpenAI-style API base
// (`http://host:8001/v1`) anywhere on the line (`quickbench.sh LABEL MODEL http://localhost:8001/v1`).
static bool server_client(const Command& c) {
  static const knowledge::Table& flags = table("client-endpoint-flags");
  auto url = [](std::string_view v) { return starts_with(v, "http://") || starts_with(v, "https://"); };
  for (size_t i = 1; i < c.argv.size(); ++i) {
    const std::string& t = c.argv[i].text;
    if (url(t) && (ends_with(t, "/v1") || ends_with(t, "/v1/"))) return true;
    size_t eq = t.find('=');
    if (eq != std::string::npos && flags.find(t.substr(0, eq)) && url(std::string_view(t).substr(eq + 1))) return true;
    if (i + 1 < c.argv.size() && flags.find(t) && url(c.argv[i + 1].text)) return true;
  }
  return false;
}

// NVFP4 uses on a command line: model ids, kernel sources, quantization flags, --fp4-format.
// A download, upload or container command (knowledge naming-commands) or a server's client:
// its words name things.
static bool naming_command(const Command& c) {
  if (server_client(c)) return true;
  size_t at = c.argv.size() > 1 && base_name(c.argv[0].text) == "sudo" ? 1 : 0;
  const Entry* e = table("naming-commands").find(base_name(c.argv[at].text));
  if (!e) return false;
  const auto& subs = e->list("subcommands");
  return subs.empty() || (at + 1 < c.argv.size() && std::find(subs.begin(), subs.end(), c.argv[at + 1].text) != subs.end());
}

// `naming` is naming_command(c), judged once per command (it reads the whole line).
static void command_uses(const Command& c, size_t i, bool naming, Evidence& ev) {
  const Word& w = c.argv[i];
  if (i == 0 || naming) return;
  if (knowledge::in("naming-flags", c.argv[i - 1].text)) return;  // --name vllm-nvfp4
  if (nvfp4_word(w.text)) ev.uses.push_back({w.loc, w.text});
  for (const Entry& f : table("nvfp4-flags").entries)
    if (w.text == f.get("name") || starts_with(w.text, f.get("name") + "=")) ev.uses.push_back({w.loc, f.get("surface")});
}

// A pip argument that builds NVFP4-capable CUDA code from source: a local tree, a VCS URL,
// an sdist (their kernels are unknown), or a package that carries NVFP4 kernels (a source
// build of causal-conv1d compiles CUDA but no FP4 code).
static bool compiles_cuda(const std::string& w) {
  if (w.empty() || w[0] == '-') return false;
  if (const Entry* src = table("pip-source-arguments").match(w)) {
    const auto& prebuilt = src->list("not_suffixes");
    return std::none_of(prebuilt.begin(), prebuilt.end(), [&](const std::string& x) { return ends_with(w, x); });
  }
  std::string n = lower(w.substr(0, w.find_first_of("=<>~![;@ ")));
  std::replace(n.begin(), n.end(), '_', '-');
  return query::has_role(n.substr(0, n.find('[')), "nvfp4-kernels");
}

// Source builds of CUDA kernels: pip --no-build-isolation, setup.py, nvcc / CUDA cmake
// without an architecture on the same line.
static void kernel_builds(const Command& c, bool arch_here, Evidence& ev) {
  const auto& a = c.argv;
  for (const Entry& pip : table("source-build-installers").entries)
    if (find_program(c, {pip.get("name")}) >= 0 && query::has_any_flag(c, {pip.get("flag")})) {
      auto src = std::find_if(a.begin(), a.end(), [](const Word& w) { return compiles_cuda(w.text); });
      if (src != a.end()) ev.builds.push_back({c.loc, "pip install " + pip.get("flag") + " " + src->text});
      break;
    }
  for (size_t i = 0; i + 1 < a.size(); ++i)
    if (ends_with(a[i].text, "setup.py") && knowledge::in("setup-py-builds", a[i + 1].text))
      ev.builds.push_back({c.loc, "setup.py " + a[i + 1].text});
  std::string prog = base_name(a[0].text);
  const Entry* tool = table("cuda-build-tools").find(prog);
  if (!tool || arch_here) return;
  const auto& query = tool->list("query_flags");  // `nvcc --version` builds nothing
  if (std::any_of(a.begin() + 1, a.end(), [&](const Word& w) { return std::find(query.begin(), query.end(), w.text) != query.end(); }))
    return;
  const std::string& word = tool->get("cuda_word");
  bool cuda = word.empty() ||
              std::any_of(a.begin(), a.end(), [&](const Word& w) { return w.text.find(word) != std::string::npos; });
  if (!cuda) return;
  Place b(c.loc, prog + " with no architecture list");
  auto src = std::find_if(a.begin() + 1, a.end(), [](const Word& w) { return ends_with(w.text, ".cu"); });
  if (src != a.end()) b.source = src->text;
  ev.builds.push_back(std::move(b));
}

// The project file a build's source names: the file itself, else the one file of that name.
static const ParsedFile* kernel_file(const Project& p, const Place& place) {
  if (place.source.empty()) return p.find(place.loc.path);
  std::string base = place.source.substr(place.source.rfind('/') == std::string::npos ? 0 : place.source.rfind('/') + 1);
  const ParsedFile* found = nullptr;
  for (const auto& f : p.files) {
    const std::string& path = f->src.path().str();
    if (path != base && !ends_with(path, "/" + base)) continue;
    if (found) return nullptr;  // two files of that name: which one is built is unknown
    found = f.get();
  }
  return found;
}

bool kernels_without_fp4(const Project& p, const Place& place) {
  const ParsedFile* f = kernel_file(p, place);
  if (!f || (place.source.empty() && f->facts->kind != FileKind::Python)) return false;
  std::string text = f->src.text();
  if (text.find("__global__") == std::string::npos) return false;
  const auto& markers = table("native-fp4-code").values();
  return std::none_of(markers.begin(), markers.end(), [&](const std::string& m) { return text.find(m) != std::string::npos; });
}

// A word that names an arch-specific target outright (sm_121a, compute_121a, sm_120f), as an
// argument or a value of any variable (`CUTE_DSL_ARCH=sm_121a`, `check.sh sm_121a`): the
// project targets it.
void specific_word(const Word& w, Evidence& ev) {
  if ((w.text.find("sm_") != std::string::npos || w.text.find("compute_") != std::string::npos) &&
      classify(w.text, false) == Arch::Specific)
    ev.specific.push_back({w.loc, w.text});
}

void command(const Command& c, Evidence& ev) {
  if (c.argv.empty()) return;
  for (const auto& [name, w] : c.env) {
    specific_word(w, ev);
    ev.arch_setting(name, w.text, w.loc);
    if (knowledge::in("nvfp4-env", name)) ev.uses.push_back({w.loc, name});
  }
  size_t before = ev.arch_count();
  std::string suffixed_by = suffixing_build(c);
  bool naming = naming_command(c);
  for (size_t i = 0; i < c.argv.size(); ++i) {
    if (!c.argv[i].resolved) continue;
    cmake_assignment(c.argv[i], suffixed_by, ev);
    nvcc_flags(c, i, ev);
    command_uses(c, i, naming, ev);
    if (i > 0) specific_word(c.argv[i], ev);
  }
  kernel_builds(c, ev.arch_count() > before, ev);
}

}  // namespace sc::g7
