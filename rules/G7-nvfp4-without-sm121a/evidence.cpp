// SPDX-License-Identifier: Apache-2.0
#include "rules/G7-nvfp4-without-sm121a/evidence.h"
#include "rules/G7-nvfp4-without-sm121a/evidence_parts.h"
#include "core/path_names.h"

#include <algorithm>
#include <cctype>

#include "core/registry.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "query/commands.h"
#include "query/packages.h"
#include "query/project.h"

namespace sc::g7 {

using knowledge::Entry;
using knowledge::table;

static std::string dir_of(const std::string& path) {
  size_t k = path.rfind('/');
  return k == std::string::npos ? std::string() : path.substr(0, k);
}

static bool markdown_path(const std::string& path) {
  std::string n = lower(path);
  return ends_with(n, ".md") || ends_with(n, ".mdx") || ends_with(n, ".markdown");
}

bool near_dirs(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || a == b || starts_with(b, a + "/") || starts_with(a, b + "/");
}

Place::Place(Location l, std::string w)
    : loc(std::move(l)), what(std::move(w)), dir(dir_of(loc.path)), value_loc(loc), doc(markdown_path(loc.path)) {}

// ---- what the project says ---------------------------------------------------------

void Evidence::arch_setting(const std::string& var, const std::string& value, const Location& loc, bool cmake_define,
                            const std::string& suffixed_by) {
  const Entry* e = table("arch-list-variables").find(var);
  if (!e || !e->get("no_fp4_kernels").empty()) return;  // NCCL's NVCC_GENCODE: no FP4 kernels built
  Arch a = classify(value, !e->get("named_archs").empty());
  const std::string& by = suffixed_by.empty() ? e->get("suffixed_by") : suffixed_by;
  if (a == Arch::Plain && !by.empty()) {  // llama.cpp's CMake, FlashInfer's JIT add the suffix themselves
    suffixed.push_back({loc, var + "=\"" + value + "\" (" + by + " builds it arch-specific)"});
  } else if (a == Arch::Plain) {
    plain.push_back({loc, var + "=\"" + value + "\""});
    if (!cmake_define) plain.back().yields_to = e->get("env_yields_to");
  } else if (a == Arch::Specific) {
    specific.push_back({loc, var});
  }
}

void Evidence::arch_argument(const Location& loc, const std::string& what, std::string_view value,
                             std::string short_what, const Location* value_loc) {
  Arch k = classify(value, false);
  if (k == Arch::Plain) plain.push_back({loc, what});
  if (k == Arch::Plain && value_loc) plain.back().value_loc = *value_loc;
  else if (k == Arch::Specific) specific.push_back({loc, std::move(short_what)});
}

static void config(const ConfigEntry& e, Evidence& ev) {
  if (!e.scalar) return;
  const std::string& k = e.key();
  ev.arch_setting(k, e.value, e.value_loc);
  specific_word(Word{e.value, e.value, true, e.value_loc}, ev);  // a recipe's `env: {CUTE_DSL_ARCH: sm_121a}`
  // environment lists: ["TORCH_CUDA_ARCH_LIST=12.1", ...]
  if (size_t eq = e.value.find('='); eq != std::string::npos && !k.empty() && k[0] == '[')
    ev.arch_setting(trim(e.value.substr(0, eq)), trim(e.value.substr(eq + 1)), e.value_loc);
  // an environment list item `SERVED_MODEL_NAME=x-nvfp4` is named by its own key
  size_t eq = !k.empty() && k[0] == '[' ? e.value.find('=') : std::string::npos;
  std::string named = eq == std::string::npos ? k : lower(trim(e.value.substr(0, eq)));
  if (nvfp4_word(e.value) && !naming_key(named)) ev.uses.push_back({e.value_loc, k + ": " + e.value});
  else if (knowledge::in("nvfp4-env", k)) ev.uses.push_back({e.key_loc, k});
}

// A string literal the code tests text against (`"nvfp4" in name`, `q == "nvfp4"`,
// `.startswith("nvfp4")`): a classifier of someone else's names, not an NVFP4 use. Needs the
// file's text (kept by names_nvfp4 below); a released file answers no.
static size_t byte_of_col(std::string_view l, int col) {  // 1-based code-point column -> byte offset
  size_t i = 0;
  for (int c = 1; c < col && i < l.size(); ++c)
    do ++i; while (i < l.size() && (static_cast<unsigned char>(l[i]) & 0xC0) == 0x80);
  return i;
}

static bool in_tested_collection(std::string_view before);

static bool compared_string(const ParsedFile& f, const Location& at) {
  if (f.src.released() || at.range.line != at.range.end_line || at.path.str() != f.src.path()) return false;
  std::string_view l = f.src.line(at.range.line);
  size_t b = byte_of_col(l, at.range.col), e = byte_of_col(l, at.range.end_col);
  if (b > e) return false;
  std::string_view after = l.substr(e), before = l.substr(0, b);
  while (!after.empty() && after.front() == ' ') after.remove_prefix(1);
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  for (std::string_view op : {"in ", "not in ", "==", "!="})
    if (starts_with(after, op)) return true;
  for (std::string_view op : {"==", "!=", " in", "startswith(", "endswith(", "find(", "index(", "count("})
    if (ends_with(before, op)) return true;
  return in_tested_collection(before);
}

// `precision in ("FP4", "NVFP4")`, `.startswith(("nvfp4", "mxfp4"))`: the string is an item of a
// tuple, list or set the text is tested against; `before` is the line up to the string.
static bool in_tested_collection(std::string_view before) {
  int depth = 0;
  for (size_t i = before.size(); i-- > 0;) {
    char ch = before[i];
    if (ch == ')' || ch == ']' || ch == '}') ++depth;
    else if ((ch == '(' || ch == '[' || ch == '{') && depth-- == 0) {
      std::string_view head = before.substr(0, i);
      while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
      return ends_with(head, " in") || ends_with(head, "startswith(") || ends_with(head, "endswith(");
    }
  }
  return false;
}

// String literals: NVFP4 names, and nvcc arguments in extra_compile_args.
static void python_strings(const ParsedFile& f, Evidence& ev) {
  for (const auto& [s, loc] : f.facts->python.strings) {
    if (nvfp4_word(s) && !compared_string(f, loc)) ev.uses.push_back({loc, "\"" + s + "\""});
    if (table("python-nvcc-args").match(s)) ev.arch_argument(loc, "\"" + s + "\"", s, s);
  }
}

// os.environ["TORCH_CUDA_ARCH_LIST"] = "12.1" / os.environ.setdefault("...", "12.1")
static void python_env(const PythonFacts& py, Evidence& ev) {
  for (const auto& a : py.assigns) {
    size_t b = a.target.find("environ[");
    if (a.is_literal && b != std::string::npos && ends_with(a.target, "]"))
      ev.arch_setting(a.target.substr(b + 8, a.target.size() - b - 9), a.value, a.loc);
  }
  for (const auto& c : py.calls)
    if ((ends_with(c.callee, "environ.setdefault") || ends_with(c.callee, "putenv")) && c.args.size() == 2 &&
        c.args[0].is_literal && c.args[1].is_literal && c.args[0].keyword.empty())
      ev.arch_setting(c.args[0].literal, c.args[1].literal, c.args[1].loc);
}

static bool comment_before(std::string_view before, bool notebook) {
  size_t h = before.find('#');
  if (h == std::string_view::npos) return false;
  if (notebook) return true;
  auto quotes = [&](char q) { return std::count(before.begin(), before.begin() + static_cast<long>(h), q); };
  return quotes('\'') % 2 == 0 && quotes('"') % 2 == 0;
}

static bool inside_string(const ParsedFile& f, const Range& here) {
  for (const auto& [s, loc] : f.facts->python.strings) {
    const Range& r = loc.range;
    bool after_start = here.line > r.line || (here.line == r.line && here.col >= r.col);
    bool before_end = here.line < r.end_line || (here.line == r.end_line && here.end_col <= r.end_col);
    if (after_start && before_end) return true;
  }
  return false;
}

// identifiers() and compared_string() read the text of Python files and notebooks that name
// NVFP4 (any case): they keep it.
static bool names_nvfp4(FileKind kind, std::string_view text) {
  if (kind != FileKind::Python && kind != FileKind::Notebook) return false;
  return find_nocase(text, "nvfp4") != std::string_view::npos;
}
SPARKCHECK_KEEPS_TEXT(names_nvfp4);

// NVFP4 identifiers in code (mtq.NVFP4_DEFAULT_CFG, QuantAlgo.NVFP4), outside comments and strings.
static void identifiers(const ParsedFile& f, Evidence& ev) {
  if (f.src.released()) return;  // its text did not name NVFP4 (names_nvfp4)
  const std::string& text = f.src.text();
  bool notebook = f.facts->kind == FileKind::Notebook;
  auto idch = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
  for (size_t pos = 0; (pos = text.find("NVFP4", pos)) != std::string::npos;) {
    size_t b = pos, e = pos + 5;
    while (b > 0 && idch(text[b - 1])) --b;
    while (e < text.size() && idch(text[e])) ++e;
    pos = e;
    std::string tok = text.substr(b, e - b);
    if (!table("nvfp4-identifiers").match(tok)) continue;
    size_t ls = f.src.line_start(f.src.line_of(b));
    if (comment_before(std::string_view(text.data() + ls, b - ls), notebook)) continue;
    if (!notebook && inside_string(f, f.src.range(b, e))) continue;
    ev.uses.push_back({f.src.loc(b, e), tok});
  }
}

static bool arch_variable(std::string_view n) { return knowledge::in("arch-list-variables", n); }

// A config entry naming an arch-list variable, as a key or as "TORCH_CUDA_ARCH_LIST=..." in a list.
static bool config_names_archs(const ConfigEntry& e) {
  if (!e.scalar || e.value.empty()) return false;
  size_t eq = e.value.find('=');
  return arch_variable(e.key()) || (eq != std::string::npos && arch_variable(trim(e.value.substr(0, eq))));
}

static bool command_names_archs(const Command& c) {
  for (const auto& [n, w] : c.env)
    if (arch_variable(n)) return true;
  for (const auto& w : c.argv)
    if (table("arch-naming-words").match(w.text)) return true;
  return false;
}

// "ARCH" as a part of a name: not after another capital letter (TORCH_CUDA_ARCH_LIST,
// GPU_ARCHS; not SEARCH_PATH). knowledge/triggers.yaml's ARCH entry matches the same.
static bool arch_name_part(std::string_view name) {
  for (size_t at = name.find("ARCH"); at != std::string_view::npos; at = name.find("ARCH", at + 1))
    if (at == 0 || name[at - 1] < 'A' || name[at - 1] > 'Z') return true;
  return false;
}

// Does the file set an architecture list or pass nvcc/CMake arch flags (any GPU)?
static bool names_archs(const FileFacts& ff) {
  for (const auto& e : ff.env)
    if (arch_variable(e.name) && !e.value.empty()) return true;
  for (const auto& a : ff.python.assigns)
    if (a.target.find("environ[") != std::string::npos && arch_name_part(a.target)) return true;
  return std::any_of(ff.config.begin(), ff.config.end(), config_names_archs) ||
         std::any_of(ff.commands.begin(), ff.commands.end(), command_names_archs);
}

// ENV / export / a settings file's `MODEL=nvidia/...-NVFP4`: an arch list, or an NVFP4 use.
// A variable holding words (`DOCKER_ENV=( -e TORCH_CUDA_ARCH_LIST=12.1a ... )`), whose use may be
// out of sight (a wrapper function, ssh): a 12.1a arch setting among them is a 12.1a target. A
// plain one is not reported from here: its place is the whole list, not the word.
static void listed_specific(const EnvSetting& e, Evidence& ev) {
  if (e.value.find(' ') == std::string::npos) return;
  for (const std::string& w : split(e.value, ' ')) {
    auto [var, value] = definition(w);
    if (!var.empty() && classify(value, false) == Arch::Specific) ev.arch_setting(var, value, e.loc);
  }
}

static void env_setting(const EnvSetting& e, Evidence& ev) {
  ev.arch_setting(e.name, e.value, e.loc);
  listed_specific(e, ev);
  specific_word(Word{e.value, e.value, true, e.loc}, ev);  // ENV CUTE_DSL_ARCH=sm_121a
  if (nvfp4_word(e.value) && !naming_key(lower(e.name))) ev.uses.push_back({e.loc, e.name + "=" + e.value});
  else if (knowledge::in("nvfp4-env", e.name)) ev.uses.push_back({e.loc, e.name});
}

// A JSON file a run wrote (results/, artifacts/...): knowledge `recorded-output-dirs`.
static bool recorded_output(std::string_view path) {
  if (!ends_with(path, ".json") && !ends_with(path, ".jsonl")) return false;
  for (size_t b = 0, e; (e = path.find('/', b)) != std::string_view::npos; b = e + 1)
    if (knowledge::in("recorded-output-dirs", lower(path.substr(b, e - b)))) return true;
  return false;
}

// An image of an engine with NVFP4 kernels in a text (an image reference, or a setting's value
// such as `${TRT_IMAGE:-nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc4}`): knowledge
// nvfp4-engine-images, or an NGC framework image (NVIDIA's build). A setting's value only
// counts for NVIDIA's images, whose names cannot be mistaken for a path.
static void engine_image(std::string_view text, Evidence& ev, bool image) {
  // `${VLLM_IMAGE}`: a variable's name says nothing of the image (its default, `${X:-ref}`, does)
  if (size_t dollar = text.find('$'); dollar != std::string_view::npos) {
    size_t dflt = text.find(":-", dollar);
    if (dflt == std::string_view::npos) return;
    text = text.substr(dflt + 2, text.find('}', dflt) - dflt - 2);
  }
  size_t ngc = text.find("nvcr.io/nvidia/");
  if (ngc != std::string_view::npos) {
    std::string_view ref = text.substr(ngc);
    if (is_ngc_framework_image(ref.substr(0, ref.find_first_of("}\"' \t")))) {
      ev.ngc_engine = true;
      return;
    }
  }
  const Entry* e = table("nvfp4-engine-images").match(lower(text));
  if (e && (e->get("nvidia") == "true" || e->get("targets_121a") == "true")) ev.ngc_engine = true;
  else if (e && image) ev.other_engine = true;  // a setting's value may be a path (/tmp/trtllm-ssh)
}

// An engine image built for the Spark (knowledge nvfp4-engine-images `nvidia` / `targets_121a`).
static bool spark_build(const std::string& ref) {
  const Entry* e = table("nvfp4-engine-images").match(lower(ref));
  return e && (e->get("nvidia") == "true" || e->get("targets_121a") == "true");
}

// Does the file run its NVFP4 on Spark builds: an NGC framework image, or only images built
// for the Spark (an upstream engine beside them keeps the file's uses open)?
static bool runs_spark_builds(const FileFacts& ff) {
  auto own = [](const Image& im) { return !im.from_stage; };
  auto ngc = [&](const Image& im) { return own(im) && is_ngc_framework_image(im.ref); };
  if (std::any_of(ff.images.begin(), ff.images.end(), ngc)) return true;
  bool any = std::any_of(ff.images.begin(), ff.images.end(), own);
  return any && std::all_of(ff.images.begin(), ff.images.end(), [&](const Image& im) { return !own(im) || spark_build(im.ref); });
}

// The tag a compose service gives the image it builds (`image: agentic/trtllm-runtime:local` with
// `build:`): its Dockerfile's FROM says where the kernels come from, not the tag's words.
static bool built_here(const FileFacts& ff, std::string_view ref) {
  return std::any_of(ff.services.begin(), ff.services.end(),
                     [&](const ComposeService& s) { return !s.dockerfile.empty() && s.image == ref; });
}

// Where the file's NVFP4 kernels can come from (Evidence::ngc_engine / other_engine).
static void engine_sources(const FileFacts& ff, Evidence& ev) {
  for (const Image& im : ff.images)
    if (!built_here(ff, im.ref)) engine_image(im.ref, ev, true);
  for (const EnvSetting& e : ff.env) engine_image(e.value, ev, false);
  for (const ConfigEntry& e : ff.config)  // a recipe's `container: scitrera/dgx-spark-sglang:0.5.10`
    if (e.scalar && knowledge::in("image-config-keys", e.key()) && !built_here(ff, e.value)) engine_image(e.value, ev, true);
  for (const Install& in : ff.installs)
    for (const Requirement& r : in.packages)
      if (query::has_role(r.name, "nvfp4-kernels")) ev.other_engine = true;
}

Evidence gather(const Project& p) {
  Evidence ev;
  for (const auto& f : p.files) {
    // a file for another platform (Dockerfile.rocm, build_vllm_ppc64le.sh) neither builds nor runs Spark kernels
    if (p.skips_test(*f) || recorded_output(f->src.path()) || query::other_platform(p, f->src.path())) continue;
    const FileFacts& ff = *f->facts;
    for (const auto& e : ff.env) env_setting(e, ev);
    for (const auto& c : ff.commands) command(c, ev);
    for (const auto& e : ff.config) config(e, ev);
    python_strings(*f, ev);
    python_env(ff.python, ev);
    if (ff.kind == FileKind::Python || ff.kind == FileKind::Notebook) identifiers(*f, ev);
    if (names_archs(ff)) ev.arch_dirs.push_back(dir_of(f->src.path()));
    if (runs_spark_builds(ff)) ev.spark_build_files.insert(f->src.path());
    engine_sources(ff, ev);
  }
  return ev;
}

}  // namespace sc::g7
