// SPDX-License-Identifier: Apache-2.0
// conda environment files (environment.yml, env*.yml with a `dependencies:` key, and any
// other .yml whose text is one: see conda_env_text): conda specs and channels, plus the
// nested `- pip:` list as pip requirements.
#include <yaml-cpp/yaml.h>

#include "core/registry.h"
#include "parsers/config.h"
#include "parsers/packaging.h"

namespace sc {
namespace {

// Location of a scalar from its yaml-cpp mark (byte offset) to the end of its text.
Location scalar_loc(const SourceFile& src, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  const std::string& t = src.text();
  if (m.pos < 0 || static_cast<size_t>(m.pos) >= t.size()) return {src.path(), {}};
  size_t b = static_cast<size_t>(m.pos), e = b;
  if (t[b] == '"' || t[b] == '\'') {
    e = t.find(t[b], b + 1);
    e = e == std::string::npos ? t.size() : e + 1;
  } else {
    while (e < t.size() && t[e] != '\n' && t[e] != '\r' && !(t[e] == '#' && e > b && t[e - 1] == ' ')) ++e;
    while (e > b && (t[e - 1] == ' ' || t[e - 1] == '\t')) --e;
  }
  return src.loc(b, e);
}

class CondaEnvParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::CondaEnv; }
  int priority() const override { return 10; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    bool yaml = ends_with(n, ".yml") || ends_with(n, ".yaml");
    if (!yaml || starts_with(n, "conda-lock")) return false;
    bool named = starts_with(n, "environment") || starts_with(n, "env");
    // The engine classifies by name before reading; with content at hand, sniff it. A
    // named file without a `dependencies:` key is parsed as a plain YAML config.
    return named && (f.head.empty() || f.head.find("dependencies:") != std::string_view::npos);
  }

  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override { parse_conda_env(src, out, diag); }
};

}  // namespace

bool conda_env_text(std::string_view t) {
  auto top = [&](std::string_view key) {
    for (size_t at = t.find(key); at != std::string_view::npos; at = t.find(key, at + 1))
      if (at == 0 || t[at - 1] == '\n') return true;
    return false;
  };
  if (!top("dependencies:")) return false;
  if (top("channels:")) return true;
  for (size_t at = t.find("- pip:"); at != std::string_view::npos; at = t.find("- pip:", at + 1)) {
    size_t b = t.rfind('\n', at);
    std::string_view before = t.substr(b == std::string_view::npos ? 0 : b + 1, at - (b == std::string_view::npos ? 0 : b + 1));
    if (before.find_first_not_of(" \t") == std::string_view::npos) return true;
  }
  return false;
}

void parse_conda_env(const SourceFile& src, FileFacts& out, ParseDiag& diag) {
  {
    YAML::Node root;
    int bad_line = 0;
    if (!yaml_safe_for_yaml_cpp(src.text(), &bad_line)) {
      yaml_entries(src, out.config.edit(), diag);  // reports the syntax error
      return;
    }
    try {
      root = YAML::Load(src.text());
    } catch (const YAML::Exception& e) {
      int line = e.mark.line >= 0 ? e.mark.line + 1 : 1;
      int col = e.mark.column >= 0 ? e.mark.column + 1 : 1;
      diag.error(src.path(), {line, col, line, col + 1},
                 src.path() + ":" + std::to_string(line) + ": YAML syntax error: " + e.msg);
      return;
    }
    if (!root.IsMap() || !root["dependencies"]) {
      yaml_entries(src, out.config.edit(), diag);
      return;
    }
    Install conda;
    conda.tool = Installer::CondaEnvFile;
    conda.loc = {src.path(), {1, 1, 1, 1 + utf8_cols(src.line(1), src.line(1).size())}};
    Install pip;
    pip.tool = Installer::Pip;
    bool have_pip = false;
    if (root["channels"] && root["channels"].IsSequence())
      for (const auto& c : root["channels"])
        if (c.IsScalar()) conda.indexes.push_back({c.Scalar(), IndexRole::CondaChannel, scalar_loc(src, c)});
    const YAML::Node deps = root["dependencies"];
    if (deps && deps.IsSequence()) {
      conda.loc = scalar_loc(src, deps);
      for (const auto& d : deps) {
        if (d.IsScalar()) {
          Requirement r;
          if (!parse_conda_spec(d.Scalar(), r)) continue;
          r.loc = scalar_loc(src, d);
          conda.packages.push_back(std::move(r));
        } else if (d.IsMap() && d["pip"] && d["pip"].IsSequence()) {
          have_pip = true;
          pip.loc = scalar_loc(src, d);
          for (const auto& p : d["pip"]) {
            if (!p.IsScalar()) continue;
            std::string s = trim(p.Scalar());
            Location l = scalar_loc(src, p);
            auto words = split(s, ' ');
            if (starts_with(s, "-")) {
              std::string opt = words[0], val = words.size() > 1 ? trim(s.substr(opt.size())) : "";
              size_t eq = opt.find('=');
              if (eq != std::string::npos) { val = opt.substr(eq + 1); opt = opt.substr(0, eq); }
              if (std::optional<PipOption> o = pip_option(opt)) apply_pip_option(pip, *o, val, l);
              continue;
            }
            Requirement r;
            if (!parse_requirement(s, r)) continue;
            r.loc = l;
            pip.packages.push_back(std::move(r));
          }
        }
      }
    }
    out.installs.push_back(std::move(conda));
    if (have_pip) out.installs.push_back(std::move(pip));
    ParseDiag ignored;
    yaml_entries(src, out.config.edit(), ignored);
  }
}

SPARKCHECK_PARSER(CondaEnvParser);
}  // namespace sc
