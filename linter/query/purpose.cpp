// SPDX-License-Identifier: Apache-2.0
#include "query/purpose.h"
#include "core/path_names.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/launch.h"
#include "analysis/paths.h"
#include "knowledge/knowledge.h"
#include "query/commands.h"
#include "query/packages.h"

namespace sc::query {

namespace {

constexpr int kMaxDepth = 4;      // scripts running scripts, imports importing modules
constexpr size_t kMaxFiles = 64;  // files read for one judgement

constexpr size_t kShortString = 16;  // longer literals are prose or URLs

// Skips the string literal at text[i]; a short device string ("cuda", "cuda:0") goes to `out`.
size_t skip_string(std::string_view text, size_t i, std::string& out) {
  char c = text[i];
  bool triple = text.substr(i, 3) == std::string(3, c);
  size_t qn = triple ? 3 : 1;
  std::string_view q = text.substr(i, qn);
  size_t end = i + qn;
  while (end < text.size() && text.substr(end, qn) != q && (triple || text[end] != '\n'))
    end += text[end] == '\\' ? 2 : 1;
  end = std::min(end, text.size());
  std::string lit = lower(text.substr(i + qn, end - i - qn));
  if (!triple && lit.size() <= kShortString && (starts_with(lit, "cuda") || starts_with(lit, "gpu")))
    out.append(lit).push_back(' ');
  return std::min(text.size(), end + qn);
}

// Python text without comments and string literals, but for device strings ("cuda:0").
std::string python_code(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '#') {
      i = text.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if (text[i] == '"' || text[i] == '\'') {
      i = skip_string(text, i, out);
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

bool names_gpu_use(std::string_view text) {
  std::string t = lower(text);
  for (const knowledge::Entry& e : knowledge::table("gpu-use-words").entries)
    if (t.find(e.get("name")) != std::string::npos) return true;
  return false;
}

bool python_program(std::string_view word) {
  std::string b = base_name(word);
  if (!starts_with(b, "python")) return false;
  return b.find_first_not_of("0123456789.", 6) == std::string::npos;
}

// What one judgement has seen: the files read, and whether a project script or module ran
// (inline code such as `python -c "import torch"` says nothing of what the venv is for).
struct Walk {
  const Project& p;
  std::set<const ParsedFile*> seen;
  bool ran_script = false;
};

bool file_is_cpu(Walk& w, const ParsedFile* f, int depth);

// `mod` ("pkg.tool") as a project file in the folder of `from` or a folder above it; null
// when none (a standard-library or installed module).
const ParsedFile* module_file(const Project& p, const ParsedFile& from, std::string mod) {
  for (char& c : mod)
    if (c == '.') c = '/';
  std::string dir = folder_of(from.src.path());
  for (int up = 0; up <= kMaxDepth; ++up) {
    for (const std::string& rel : {mod + ".py", mod + "/__init__.py", mod + "/__main__.py"})
      if (const ParsedFile* f = p.find(dir.empty() ? rel : path_in_dir(dir, rel))) return f;
    if (dir.empty()) break;
    dir = folder_of(dir);
  }
  return nullptr;
}

// A path word as a project file: `tools/x.py` beside `from` or at the root; for
// `${DIR}/tools/x.py` or `$DIR/tools/x.py`, the part after the variable.
const ParsedFile* project_file(const Project& p, const ParsedFile& from, const std::string& word) {
  std::string rel = word;
  if (size_t v = rel.rfind('$'); v != std::string::npos) {
    size_t slash = rel.find('/', v);
    if (slash == std::string::npos) return nullptr;
    rel.erase(0, slash + 1);
  }
  if (rel.empty()) return nullptr;
  if (const ParsedFile* f = p.resolve(from, rel)) return f;
  return p.find(rel);
}

// The first module of each `import a.b` / `from a.b import c` line.
std::vector<std::string> imported_modules(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string ln;
  while (std::getline(in, ln)) {
    std::istringstream words(ln);
    std::string kw, mod;
    if (!(words >> kw >> mod) || (kw != "import" && kw != "from") || mod[0] == '.') continue;
    out.push_back(mod.substr(0, mod.find_first_of(",;")));
  }
  return out;
}

// A Python file and the project modules it imports name no GPU use.
bool python_is_cpu(Walk& w, const ParsedFile* f, int depth) {
  if (!w.seen.insert(f).second) return true;
  if (depth > kMaxDepth || w.seen.size() > kMaxFiles) return false;
  const std::string& text = f->src.text();
  if (names_gpu_use(python_code(text))) return false;
  for (const std::string& m : imported_modules(text))
    if (const ParsedFile* dep = module_file(w.p, *f, m); dep && !python_is_cpu(w, dep, depth + 1)) return false;
  return true;
}

constexpr int kMaxHeredocLines = 4096;  // a longer body (or none that ends) is not read

// The body of the heredoc that starts on the command's line (`python3 - <<'EOF'`); nullopt
// when there is none or it is longer than kMaxHeredocLines.
std::optional<std::string> heredoc_body(const ParsedFile& f, const Command& c) {
  std::string_view head = f.src.line(c.loc.range.line);
  size_t at = head.find("<<");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = head.substr(at + 2);
  size_t s = rest.find_first_not_of("-~ \t'\"");
  if (s == std::string_view::npos) return std::nullopt;
  rest.remove_prefix(s);
  std::string end(rest.substr(0, rest.find_first_of("'\" \t;)|&")));
  std::string body;
  int last = std::min(f.src.line_count(), c.loc.range.line + kMaxHeredocLines);
  for (int l = c.loc.range.line + 1; l <= last; ++l) {
    std::string_view ln = f.src.line(l);
    size_t b = ln.find_first_not_of(" \t");
    if (b != std::string_view::npos && ln.substr(b) == end) return body;
    body.append(ln).push_back('\n');
  }
  return std::nullopt;
}

// A Python run: its script, module, inline code or heredoc names no GPU use.
bool python_run_is_cpu(Walk& w, const ParsedFile& f, const Command& c, size_t py) {
  for (size_t i = py + 1; i < c.argv.size(); ++i) {
    const std::string& a = c.argv[i].text;
    if (a == "-c") return i + 1 < c.argv.size() && !names_gpu_use(python_code(c.argv[i + 1].text));
    if (a == "-") {
      auto body = heredoc_body(f, c);
      return body && !names_gpu_use(python_code(*body));
    }
    if (a == "-m") {
      if (i + 1 >= c.argv.size()) return false;
      if (knowledge::in("tool-modules", c.argv[i + 1].text)) return true;  // not a use of the venv's torch
      w.ran_script = true;
      const ParsedFile* mod = module_file(w.p, f, c.argv[i + 1].text);
      return mod && python_is_cpu(w, mod, 1);
    }
    if (!a.empty() && a[0] == '-') continue;  // -u, -I, -O ...
    w.ran_script = true;
    const ParsedFile* script = project_file(w.p, f, a);
    return script && python_is_cpu(w, script, 1);
  }
  return false;  // an interactive interpreter: anything can run there
}

// Words that run the next word as a program: `uv run python x.py`, `sudo python3 x.py`.
bool wrapper(std::string_view w) {
  return w == "uv" || w == "run" || w == "sudo" || w == "nohup" || w == "time" || w == "exec" || w == "poetry" ||
         w == "pipenv" || w == "env";
}

// The first line of the last Markdown Python block that names a GPU use; 0 when none.
int last_gpu_python_block(const ParsedFile& f) {
  int found = 0;
  for (const auto& [first, last] : f.facts->code_lines) {
    if (first < 2) continue;
    std::string fence = lower(f.src.line(first - 1));
    size_t s = fence.find_first_not_of("`~ \t");
    std::string lang = s == std::string::npos ? "" : fence.substr(s, fence.find_first_of(" \t{", s) - s);
    if (lang != "python" && lang != "py" && lang != "python3" && lang != "ipython" && lang != "pycon") continue;
    std::string block;
    for (int l = first; l <= last; ++l) block.append(f.src.line(l)).push_back('\n');
    if (names_gpu_use(python_code(block))) found = std::max(found, first);
  }
  return found;
}

// A command runs nothing on the GPU from the host environment: it runs in an image, or its
// Python and the project scripts it starts name no GPU use.
bool command_is_cpu(Walk& w, const ParsedFile& f, const Command& c, int depth) {
  if (c.argv.empty() || c.context == CommandContext::Container || c.context == CommandContext::Compose ||
      knowledge::in("elsewhere-programs", base_name(c.argv[0].text)))
    return true;
  if (!launcher_of(c).empty() || knowledge::in("gpu-use-words", base_name(c.argv[0].text))) return false;
  for (size_t i = 0; i < c.argv.size(); ++i) {
    if (python_program(c.argv[i].text)) return python_run_is_cpu(w, f, c, i);
    if (!wrapper(base_name(c.argv[i].text))) break;
  }
  std::string s = script_of(c);
  const ParsedFile* sf = s.empty() ? nullptr : project_file(w.p, f, s);
  return !sf || sf->facts->kind != FileKind::Shell || file_is_cpu(w, sf, depth + 1);
}

// Every command of a project shell script runs nothing on the GPU.
bool file_is_cpu(Walk& w, const ParsedFile* f, int depth) {
  if (!w.seen.insert(f).second) return true;
  if (depth > kMaxDepth || w.seen.size() > kMaxFiles) return false;
  for (const Command& c : f->facts->commands)
    if (!command_is_cpu(w, *f, c, depth)) return false;
  return true;
}

}  // namespace

// For each command of a file in line order: do it and every later one run nothing on the GPU,
// and does a project script run among them?
struct CpuTooling::FileSuffixes {
  std::vector<int> lines;
  std::vector<char> cpu_from, script_from;
  int gpu_block = 0;  // last_gpu_python_block
};

CpuTooling::CpuTooling(const Project& p) : p_(p) {}
CpuTooling::~CpuTooling() = default;

const CpuTooling::FileSuffixes& CpuTooling::suffixes(const ParsedFile& f) {
  auto& slot = files_[&f];
  if (slot) return *slot;
  slot = std::make_unique<FileSuffixes>();
  std::vector<const Command*> cmds;
  for (const Command& c : f.facts->commands) cmds.push_back(&c);
  std::stable_sort(cmds.begin(), cmds.end(),
                   [](const Command* a, const Command* b) { return a->loc.range.line < b->loc.range.line; });
  size_t n = cmds.size();
  slot->lines.resize(n);
  slot->cpu_from.assign(n + 1, 1);
  slot->script_from.assign(n + 1, 0);
  // backwards, one walk: a script met again was judged at a later command, whose result the
  // suffix already holds
  Walk w{p_, {&f}};
  for (size_t i = n; i-- > 0;) {
    w.ran_script = false;
    slot->lines[i] = cmds[i]->loc.range.line;
    slot->cpu_from[i] = slot->cpu_from[i + 1] && command_is_cpu(w, f, *cmds[i], 0);
    slot->script_from[i] = slot->script_from[i + 1] || w.ran_script;
  }
  if (f.facts->kind == FileKind::Markdown) slot->gpu_block = last_gpu_python_block(f);
  return *slot;
}

bool CpuTooling::operator()(const PkgEnv& env, const PkgRun& run) {
  auto [at, fresh] = runs_.try_emplace(&run, false);
  if (fresh) at->second = judge(env, run);
  return at->second;
}

bool CpuTooling::judge(const PkgEnv& env, const PkgRun& run) {
  if (env.dockerfile || !run.file || !run.install) return false;
  const ParsedFile& f = *run.file;
  if (f.facts->kind != FileKind::Shell && f.facts->kind != FileKind::Markdown) return false;
  for (const PkgMember& m : run.members)  // GPU kernels installed: a GPU venv
    for (const Requirement& r : m.install->packages)
      if (has_role(r.name, "cuda-kernels")) return false;
  const FileSuffixes& s = suffixes(f);
  int after = run.install->loc.range.line;
  size_t k = std::upper_bound(s.lines.begin(), s.lines.end(), after) - s.lines.begin();
  return s.cpu_from[k] && s.script_from[k] && s.gpu_block <= after;
}

}  // namespace sc::query
