// SPDX-License-Identifier: Apache-2.0
#include "rules/G7-nvfp4-without-sm121a/evidence.h"
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

// ---- architecture lists ------------------------------------------------------------

// The arch target of a lower-case token with its affixes stripped ("sm_121a" -> "121a",
// "12.1+PTX" -> "12.1"); `prefix` gets the length stripped in front.
static const Entry* token_target(std::string t, size_t& prefix) {
  prefix = 0;
  for (const Entry& e : table("arch-token-affixes").entries) {
    const std::string& a = e.get("name");
    if (e.get("side") == "prefix" && starts_with(t, a)) t = t.substr(a.size()), prefix += a.size();
    if (e.get("side") == "suffix" && ends_with(t, a)) t = t.substr(0, t.size() - a.size());
  }
  return table("arch-targets").find(t);
}

static Arch classify_token(const std::string& t, bool named_archs) {
  size_t prefix = 0;
  const Entry* target = token_target(t, prefix);
  if (!target || (!target->get("named").empty() && !named_archs)) return Arch::None;
  return target->get("kind") == "specific" ? Arch::Specific : Arch::Plain;
}

// Calls `fn(offset, token)` for each token of an architecture list.
template <class Fn>
static void for_tokens(std::string_view text, Fn fn) {
  std::string tok;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-';
    if (!word) {
      if (!tok.empty()) fn(start, lower(tok));
      tok.clear();
    } else if (c != '-' || !tok.empty()) {  // "-gencode" / "-arch": '-' only inside a token
      if (tok.empty()) start = i;
      tok += c;
    }
  }
}

Arch classify(std::string_view text, bool named_archs) {
  bool plain = false, specific = false;
  for_tokens(text, [&](size_t, const std::string& tok) {
    Arch a = classify_token(tok, named_archs);
    plain = plain || a == Arch::Plain;
    specific = specific || a == Arch::Specific;
  });
  return specific ? Arch::Specific : plain ? Arch::Plain : Arch::None;
}

std::vector<std::pair<size_t, size_t>> plain_numbers(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spots;
  bool named = false;
  for_tokens(text, [&](size_t at, const std::string& tok) {
    size_t prefix = 0;
    const Entry* target = token_target(tok, prefix);
    if (!target || target->get("kind") != "plain") return;
    if (!target->get("named").empty()) named = true;
    else spots.push_back({at + prefix, target->get("name").size()});
  });
  if (named) spots.clear();
  return spots;
}

// ---- NVFP4 words ---------------------------------------------------------------------

// The value a word carries, lowercased: "--quantization=modelopt_fp4" -> "modelopt_fp4";
// nullopt for prose (spaces), flags without a value and oversized words.
static std::optional<std::string> word_value(std::string_view word) {
  if (word.empty() || word.size() > 300) return std::nullopt;
  if (std::any_of(word.begin(), word.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  std::string l = lower(word);
  if (starts_with(l, "-")) {
    size_t eq = l.find('=');
    if (eq == std::string::npos) return std::nullopt;
    l = l.substr(eq + 1);
  }
  while (!l.empty() && l.back() == '/') l.pop_back();
  return l;
}

// The extension of a file name, "" when it has none ("Llama-3.1-8B-NVFP4" has a dot but no extension).
static std::string extension(const std::string& last) {
  size_t dot = last.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  std::string ext = last.substr(dot + 1);
  bool alnum = std::all_of(ext.begin(), ext.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  return !ext.empty() && ext.size() <= 12 && std::isalpha(static_cast<unsigned char>(ext[0])) && alnum ? ext : "";
}

// A value containing "nvfp4": a quantization value, a hub id, a kernel source or weights
// file, a local checkpoint directory; not a URL or a document.
static bool nvfp4_path(const std::string& l) {
  if (l.find("://") != std::string::npos) return false;
  size_t slash = l.rfind('/');
  std::string last = l.substr(slash == std::string::npos ? 0 : slash + 1);
  std::string ext = extension(last);
  if (!ext.empty()) return knowledge::in("nvfp4-file-extensions", ext);
  size_t slashes = std::count(l.begin(), l.end(), '/');
  bool local = starts_with(l, "./") || starts_with(l, "../") || starts_with(l, "/") || starts_with(l, "~");
  if (slashes == 0 || (slashes == 1 && !local)) return true;
  return ends_with(last, "nvfp4");
}

// `ENABLE_NVFP4_SM100=0`, `USE_NVFP4=false`: a switch that turns an NVFP4 path off.
static bool switched_off(std::string_view word) {
  size_t eq = word.find('=');
  if (eq == std::string_view::npos) return false;
  static const std::set<std::string> off = {"0", "false", "off", "no", "none", "disabled"};
  return off.count(lower(std::string(word.substr(eq + 1)))) > 0;
}

bool nvfp4_word(std::string_view word) {
  if (switched_off(word)) return false;
  auto l = word_value(word);
  if (!l) return false;
  if (knowledge::in("nvfp4-quant-values", *l)) return true;
  if (l->find("nvfp4") == std::string::npos) return table("nvfp4-model-ids").match(*l) != nullptr;
  return nvfp4_path(*l);
}

static bool naming_key(const std::string& k) {
  if (knowledge::in("naming-config-keys", k)) return true;
  for (const Entry* e : table("naming-config-key-patterns").matches(k))
    if (e->get("unless").empty() || k.find(e->get("unless")) == std::string::npos) return true;
  return false;
}

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

// "CMAKE_CUDA_ARCHITECTURES=121" of "-DCMAKE_CUDA_ARCHITECTURES:STRING=121" as (name, value);
// empty without `=`.
static std::pair<std::string, std::string> definition(const std::string& word) {
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
static void specific_word(const Word& w, Evidence& ev) {
  if ((w.text.find("sm_") != std::string::npos || w.text.find("compute_") != std::string::npos) &&
      classify(w.text, false) == Arch::Specific)
    ev.specific.push_back({w.loc, w.text});
}

static void command(const Command& c, Evidence& ev) {
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
