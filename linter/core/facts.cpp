#include "core/facts.h"

namespace sc {

const char* kind_name(FileKind k) {
  switch (k) {
    case FileKind::Dockerfile: return "dockerfile";
    case FileKind::Requirements: return "requirements";
    case FileKind::Pyproject: return "pyproject";
    case FileKind::CondaEnv: return "conda-environment";
    case FileKind::Lockfile: return "lockfile";
    case FileKind::Yaml: return "yaml";
    case FileKind::Json: return "json";
    case FileKind::Toml: return "toml";
    case FileKind::Python: return "python";
    case FileKind::Shell: return "shell";
    case FileKind::Notebook: return "notebook";
    case FileKind::Unknown: break;
  }
  return "unknown";
}

std::string ConfigEntry::dotted() const {
  std::string s;
  for (auto& p : path) {
    if (!s.empty() && !(p.size() && p[0] == '[')) s += '.';
    s += p;
  }
  return s;
}

}  // namespace sc
