// SPDX-License-Identifier: Apache-2.0
// CI files: GitHub Actions workflows (.github/workflows/*.yml) and GitLab CI
// (.gitlab-ci.yml). The YAML is read as config like any YAML file; each job's shell
// steps become Command facts (GitHub `run:` under its `shell:`, GitLab
// `script:`/`before_script:`/`after_script:`), its container and service images Image
// facts, and the job itself a CiJob fact with the runner labels it asks for.
// GitHub `${{ ... }}` expressions are read as shell variables of the same length:
// literal `matrix.KEY` values fill them in (each value in turn), others stay unknown.
// GitLab `parallel: matrix:` literal values fill the `$KEY` variables they define.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "parsers/config.h"
#include "parsers/embedded.h"
#include "parsers/shell.h"

namespace sc {
namespace {

using Vars = std::map<std::string, std::string>;
using Matrix = std::map<std::string, std::vector<std::string>>;

bool item(const std::string& k) { return starts_with(k, "["); }

struct Script {
  const ConfigEntry* body = nullptr;
  std::string shell;  // GitHub `shell:`; empty = the default (bash)
  Vars env;           // step env
};

struct Job {
  std::string name;
  int first = 0;
  std::vector<const ConfigEntry*> labels, images;
  bool has_labels = false;
  std::vector<Script> scripts;
  Matrix matrix;
  std::vector<Matrix> gitlab_matrix;  // GitLab `parallel: matrix:` items, each its own product
  Vars env;
  std::string shell;  // defaults.run.shell
};

Job new_job(const std::string& name, int line) {
  Job j;
  j.name = name;
  j.first = line;
  return j;
}

// `${{ expr }}` -> `$NAME` padded to the same length, so every column stays. A
// `matrix.KEY` with a chosen value gets it; anything else is an unknown variable.
std::string rewrite_expressions(const std::string& text, const Vars& choice, Vars& vars) {
  std::string out = text;
  size_t pos = 0;
  for (int n = 0; (pos = out.find("${{", pos)) != std::string::npos; ++n) {
    size_t end = out.find("}}", pos);
    if (end == std::string::npos || out.find('\n', pos) < end) break;
    end += 2;
    std::string expr = trim(std::string_view(out).substr(pos + 3, end - pos - 5));
    std::string name = "_E" + std::to_string(n);
    size_t len = end - pos - 1;
    if (name.size() > len) name = "_";
    name.resize(len, '_');
    if (auto it = choice.find(expr); it != choice.end()) vars[name] = it->second;
    out.replace(pos, end - pos, "$" + name);
    pos = end;
  }
  return out;
}

// The matrix keys a text refers to (`${{ matrix.cuda }}`).
std::vector<std::string> matrix_keys(const std::string& text, const Matrix& m) {
  std::vector<std::string> keys;
  for (const auto& [k, values] : m)
    if (!values.empty() && text.find("matrix." + k) != std::string::npos) keys.push_back(k);
  return keys;
}

// Every combination of the values of `keys` (at most 16), as "matrix.KEY" -> value.
std::vector<Vars> choices(const std::vector<std::string>& keys, const Matrix& m) {
  std::vector<Vars> out{{}};
  for (const std::string& k : keys) {
    std::vector<Vars> next;
    for (const Vars& c : out)
      for (const std::string& v : m.at(k)) {
        if (next.size() >= 16) break;
        Vars d = c;
        d["matrix." + k] = v;
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  return out;
}

// GitLab `parallel: matrix:`: the variables of each item that `text` uses ($KEY, ${KEY}),
// every combination within an item, items one after the other (at most 16 in all).
std::vector<Vars> gitlab_choices(const std::string& text, const std::vector<Matrix>& items) {
  std::vector<Vars> out;
  for (const Matrix& m : items) {
    std::vector<std::string> keys;
    for (const auto& [k, values] : m)
      if (text.find("$" + k) != std::string::npos || text.find("${" + k + "}") != std::string::npos) keys.push_back(k);
    if (keys.empty()) continue;
    for (const Vars& c : choices(keys, m)) {
      if (out.size() >= 16) break;
      Vars v;
      for (const auto& [k, val] : c) v[k.substr(7)] = val;  // "matrix.KEY" -> "KEY"
      out.push_back(std::move(v));
    }
  }
  if (out.empty()) out.emplace_back();
  return out;
}

class CiReader {
 public:
  CiReader(const SourceFile& src, FileFacts& out, ParseDiag& diag, std::string system)
      : src_(src), out_(out), diag_(diag), system_(std::move(system)) {}

  void job(const Job& j, int last) {
    CiJob cj{system_, j.name, j.first, last, {}, true};
    for (const ConfigEntry* l : j.labels) {
      std::vector<std::string> values = expand(l->value, j);
      for (const std::string& v : values)
        if (v.find("${{") != std::string::npos || v.empty()) cj.resolved = false;
        else cj.labels.push_back(v);
    }
    if (system_ == "github" && !j.has_labels) cj.resolved = false;  // a reusable workflow call
    out_.ci_jobs.push_back(std::move(cj));
    for (const ConfigEntry* e : j.images) image(*e, j);
    for (const Script& s : j.scripts) script(j, s);
  }

 private:
  const SourceFile& src_;
  FileFacts& out_;
  ParseDiag& diag_;
  std::string system_;

  // A label or image with its matrix values filled in, one string per combination.
  std::vector<std::string> expand(const std::string& text, const Job& j) {
    if (system_ == "gitlab") {
      std::vector<std::string> out;
      for (const Vars& c : gitlab_choices(text, j.gitlab_matrix)) {
        Expanded x = expand_word(text, c);
        out.push_back(x.resolved ? x.text : text);
      }
      return out;
    }
    std::vector<std::string> out;
    const Matrix& m = j.matrix;
    for (const Vars& c : choices(matrix_keys(text, m), m)) {
      Vars vars;
      std::string t = rewrite_expressions(text, c, vars);
      Expanded x = expand_word(t, vars);
      out.push_back(x.resolved ? x.text : text);
    }
    return out;
  }

  void image(const ConfigEntry& e, const Job& j) {
    for (const std::string& ref : expand(e.value, j))
      if (ref.find("${{") == std::string::npos) yaml_image(e, ref, out_);
  }

  void script(const Job& j, const Script& s) {
    const std::string shell = s.shell.empty() ? j.shell : s.shell;
    std::string prog = shell.substr(0, shell.find(' '));
    bool sh = prog.empty() || prog == "bash" || prog == "sh";
    EmbedMap m = yaml_scalar_map(src_, *s.body);
    if (prog == "python") {
      parse_embedded(src_, "ci-step.py", s.body->value, m, out_, diag_);
      return;
    }
    if (!sh) return;  // pwsh, cmd: not read
    bool gitlab = system_ == "gitlab";
    for (const Vars& c : gitlab ? gitlab_choices(s.body->value, j.gitlab_matrix)
                                : choices(matrix_keys(s.body->value, j.matrix), j.matrix)) {
      Vars vars = j.env;
      if (gitlab) vars.insert(c.begin(), c.end());
      for (const auto& [k, v] : s.env) vars[k] = v;
      for (const auto& [k, v] : j.env) vars["env." + k] = v;
      Vars choice = c;
      for (const auto& [k, v] : vars)
        if (starts_with(k, "env.")) choice[k] = v;
      std::string text = rewrite_expressions(s.body->value, choice, vars);
      embed_shell(src_, text, m, vars, CommandContext::Ci, out_, diag_);
    }
  }
};

// ---- GitHub Actions ---------------------------------------------------------------

// Literal matrix values; an empty one is left out (steps guard it with `if: matrix.KEY`).
void github_matrix_entry(Job& j, const ConfigEntry& e, const std::vector<std::string>& p) {
  size_t n = p.size();
  if (n < 6 || p[3] != "matrix" || e.value.empty()) return;
  if (p[4] == "include" && item(p[5])) {
    if (n == 7) j.matrix[p[6]].push_back(e.value);
  } else if (n == 6 && item(p[5])) {
    j.matrix[p[4]].push_back(e.value);
  }
}

void github_step_entry(Script& s, const ConfigEntry& e, const std::vector<std::string>& p) {
  size_t n = p.size();
  if (p[4] == "run" && n == 5) s.body = &e;
  else if (p[4] == "shell" && n == 5) s.shell = e.value;
  else if (p[4] == "env" && n == 6) s.env[p[5]] = e.value;
}

void github_job_entry(Job& j, const ConfigEntry& e, const std::vector<std::string>& p,
                      std::map<std::string, Script>& steps) {
  const std::string& k = p[2];
  size_t n = p.size();
  if (k == "runs-on") j.has_labels = true;
  if (!e.scalar) return;
  if (k == "runs-on" && (n == 3 || (n == 4 && item(p[3])) || (n == 5 && p[3] == "labels"))) j.labels.push_back(&e);
  else if (k == "container" && (n == 3 || (n == 4 && p[3] == "image"))) j.images.push_back(&e);
  else if (k == "services" && n == 5 && p[4] == "image") j.images.push_back(&e);
  else if (k == "env" && n == 4) j.env[p[3]] = e.value;
  else if (k == "defaults" && n == 5 && p[3] == "run" && p[4] == "shell") j.shell = e.value;
  else if (k == "strategy") github_matrix_entry(j, e, p);
  else if (k == "steps" && n >= 5 && item(p[3])) github_step_entry(steps[p[3]], e, p);
}

// Workflow env and default shell, then the steps that run a script, in source order.
void finish_job(Job& j, const Vars& top_env, const std::string& top_shell, std::map<std::string, Script>& steps) {
  for (const auto& [k, v] : top_env) j.env.emplace(k, v);
  if (j.shell.empty()) j.shell = top_shell;
  for (auto& [k, s] : steps)
    if (s.body) j.scripts.push_back(s);
  std::sort(j.scripts.begin(), j.scripts.end(), [](const Script& a, const Script& b) {
    return a.body->value_loc.range.line < b.body->value_loc.range.line;
  });
}

void github(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  std::vector<Job> jobs;
  std::map<std::string, size_t> index;
  std::map<std::string, std::map<std::string, Script>> steps;
  Vars top_env;
  std::string top_shell;
  for (const ConfigEntry& e : out.config) {
    const auto& p = e.path;
    if (p.size() == 2 && p[0] == "env" && e.scalar) top_env[p[1]] = e.value;
    if (p.size() == 3 && p[0] == "defaults" && p[1] == "run" && p[2] == "shell") top_shell = e.value;
    if (p.size() < 2 || p[0] != "jobs" || e.document != 0) continue;
    if (!index.count(p[1])) {
      index[p[1]] = jobs.size();
      jobs.push_back(new_job(p[1], e.key_loc.range.line));
    }
    if (p.size() >= 3) github_job_entry(jobs[index[p[1]]], e, p, steps[p[1]]);
  }
  CiReader r(src, out, diag, "github");
  for (size_t i = 0; i < jobs.size(); ++i) {
    finish_job(jobs[i], top_env, top_shell, steps[jobs[i].name]);
    r.job(jobs[i], i + 1 < jobs.size() ? jobs[i + 1].first - 1 : src.line_count());
  }
}

// ---- GitLab CI --------------------------------------------------------------------

bool gitlab_keyword(const std::string& k) {
  static const std::set<std::string> top = {"stages", "variables", "include", "workflow", "cache", "spec"};
  return top.count(k) > 0;
}

// parallel: matrix: - {KEY: value} / {KEY: [v1, v2]}: literal values of item [i].
void gitlab_matrix_entry(Job& j, const ConfigEntry& e, const std::vector<std::string>& p, size_t at) {
  size_t rest = p.size() - at - 1;
  if (e.value.empty() || rest < 1 || rest > 2 || (rest == 2 && !item(p[at + 2]))) return;
  size_t i = 0;
  auto [end, ec] = std::from_chars(p[at].data() + 1, p[at].data() + p[at].size() - 1, i);
  if (ec != std::errc() || i > 64) return;
  if (j.gitlab_matrix.size() <= i) j.gitlab_matrix.resize(i + 1);
  j.gitlab_matrix[i][p[at + 1]].push_back(e.value);
}

void gitlab_entry(Job& j, const ConfigEntry& e, const std::vector<std::string>& p, size_t at) {
  const std::string& k = p[at];
  size_t rest = p.size() - at - 1;
  bool list_item = rest == 1 && item(p[at + 1]);
  if (!e.scalar) return;
  if (k == "script" || k == "before_script" || k == "after_script") {
    if (rest == 0 || list_item) j.scripts.push_back({&e, "", {}});
  } else if (k == "image" && (rest == 0 || (rest == 1 && p[at + 1] == "name"))) {
    j.images.push_back(&e);
  } else if (k == "services" && (list_item || (rest == 2 && item(p[at + 1]) && p[at + 2] == "name"))) {
    j.images.push_back(&e);
  } else if (k == "tags" && list_item) {
    j.labels.push_back(&e);
  } else if (k == "variables" && rest == 1) {
    j.env[p[at + 1]] = e.value;
  } else if (k == "parallel" && rest >= 3 && p[at + 1] == "matrix" && item(p[at + 2])) {
    gitlab_matrix_entry(j, e, p, at + 2);
  }
}

void gitlab(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  std::vector<Job> jobs;
  std::map<std::string, size_t> index;
  Vars globals;
  for (const ConfigEntry& e : out.config) {
    const auto& p = e.path;
    if (p.size() == 2 && p[0] == "variables" && e.scalar) globals[p[1]] = e.value;
    if (p.empty() || gitlab_keyword(p[0]) || e.document != 0) continue;
    if (!index.count(p[0])) {
      index[p[0]] = jobs.size();
      jobs.push_back(new_job(p[0], e.key_loc.range.line));
    }
    Job& j = jobs[index[p[0]]];
    if (p.size() == 1) gitlab_entry(j, e, p, 0);  // global image: / before_script: scalar
    else if (p[0] == "image" || p[0] == "before_script" || p[0] == "after_script" || p[0] == "services")
      gitlab_entry(j, e, p, 0);
    else gitlab_entry(j, e, p, 1);
  }
  CiReader r(src, out, diag, "gitlab");
  for (size_t i = 0; i < jobs.size(); ++i) {
    for (const auto& [k, v] : globals) jobs[i].env.emplace(k, v);
    r.job(jobs[i], i + 1 < jobs.size() ? jobs[i + 1].first - 1 : src.line_count());
  }
}

bool yaml_name(const std::string& n) { return ends_with(n, ".yml") || ends_with(n, ".yaml"); }

class CiParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Yaml; }
  int priority() const override { return 6; }
  bool accepts(const FileInfo& f) const override { return github_file(f) || gitlab_file(f); }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    yaml_entries(src, out.config.edit(), diag);
    const std::string& path = src.path();
    FileInfo f{path, path.substr(path.rfind('/') + 1), {}};
    if (github_file(f)) github(src, out, diag);
    else gitlab(src, out, diag);
  }

 private:
  static bool github_file(const FileInfo& f) {
    std::string p = lower(f.path);
    return yaml_name(p) && (starts_with(p, ".github/workflows/") || p.find("/.github/workflows/") != std::string::npos);
  }
  static bool gitlab_file(const FileInfo& f) {
    std::string n = lower(f.name);
    return n == ".gitlab-ci.yml" || n == ".gitlab-ci.yaml" || (yaml_name(n) && n.find(".gitlab-ci.") != std::string::npos);
  }
};

}  // namespace

SPARKCHECK_PARSER(CiParser);

}  // namespace sc
