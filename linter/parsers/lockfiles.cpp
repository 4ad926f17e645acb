// SPDX-License-Identifier: Apache-2.0
// Lock files: uv.lock, poetry.lock, pdm.lock, pylock.toml (TOML) and
// conda-lock.yml (YAML). They only record which packages are pinned.
#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include "parsers/config.h"

#include "core/registry.h"
#include "parsers/packaging.h"

namespace sc {
namespace {

bool toml_lock(const std::string& n) {
  return n == "uv.lock" || n == "poetry.lock" || n == "pdm.lock" || n == "pylock.toml" ||
         (starts_with(n, "pylock.") && ends_with(n, ".toml"));
}

bool yaml_lock(const std::string& n) {
  return starts_with(n, "conda-lock") && (ends_with(n, ".yml") || ends_with(n, ".yaml"));
}

class LockfileParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Lockfile; }
  int priority() const override { return 30; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    return toml_lock(n) || yaml_lock(n);
  }

  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.lockfile = true;
    std::string path = src.path();
    std::string n = lower(path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1));
    if (yaml_lock(n)) {
      int bad_line = 0;
      std::string why;
      if (!yaml_safe_for_yaml_cpp(src.text(), &bad_line, &why)) {
        diag.error(src.path(), {bad_line, 1, bad_line, 2}, why);
        return;
      }
      try {
        YAML::Node root = YAML::Load(src.text());
        const YAML::Node pk = root["package"];
        if (pk && pk.IsSequence())
          for (const auto& p : pk)
            if (p.IsMap() && p["name"] && p["version"])
              out.locked[normalize_pkg_name(p["name"].as<std::string>())] = p["version"].as<std::string>();
      } catch (const YAML::Exception& e) {
        int line = e.mark.line >= 0 ? e.mark.line + 1 : 1;
        diag.error(path, {line, 1, line, 2}, path + ":" + std::to_string(line) + ": YAML syntax error in lock file: " + e.msg);
      }
      return;
    }
    try {
      toml::table tbl = toml::parse(std::string_view(src.text()), std::string_view(path));
      for (const char* key : {"package", "packages"}) {
        auto arr = tbl[key].as_array();
        if (!arr) continue;
        for (const toml::node& el : *arr) {
          auto t = el.as_table();
          if (!t) continue;
          auto name = t->get_as<std::string>("name");
          auto ver = t->get_as<std::string>("version");
          if (name) out.locked[normalize_pkg_name(name->get())] = ver ? ver->get() : std::string();
        }
      }
    } catch (const toml::parse_error& e) {
      int line = static_cast<int>(e.source().begin.line);
      diag.error(path, {line, 1, line, 2},
                 path + ":" + std::to_string(line) + ": TOML syntax error in lock file: " + std::string(e.description()));
    }
  }
};

}  // namespace
SPARKCHECK_PARSER(LockfileParser);
}  // namespace sc
