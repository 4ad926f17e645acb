// SPDX-License-Identifier: Apache-2.0
// Images the project builds itself and another Dockerfile starts FROM: `docker build -t NAME
// [-f FILE] CONTEXT` in any command, or a folder named like the image holding a Dockerfile
// (`FROM pytorch-jp` beside `pytorch-jp/Dockerfile`). Project::stage_image follows them to
// the base image that the built Dockerfile starts from.
#include <set>

#include "analysis/paths.h"
#include "analysis/project.h"

namespace sc {
namespace {

// "Name:latest" -> "name"; other tags stay.
std::string image_key(std::string ref) {
  ref = lower(ref);
  if (ends_with(ref, ":latest")) ref.resize(ref.size() - 7);
  return ref;
}

// docker/podman [buildx|image] build: the index of the `build` word, or 0.
size_t build_word(const Command& c) {
  const auto& a = c.argv;
  if (a.empty() || (a[0].text != "docker" && a[0].text != "podman")) return 0;
  for (size_t i = 1; i < a.size() && i < 3; ++i) {
    if (a[i].text == "build") return i;
    if (a[i].text != "buildx" && a[i].text != "image") return 0;
  }
  return 0;
}

bool value_option(const std::string& w) {
  static const std::set<std::string, std::less<>> flags = {"--no-cache", "--pull", "--load", "--push", "--rm",
                                                           "--force-rm", "--quiet", "-q", "--squash", "--compress"};
  return w.size() > 1 && w[0] == '-' && w.find('=') == std::string::npos && !flags.count(w);
}

struct BuildLine {
  std::vector<std::string> tags;
  std::string file, context;
};

BuildLine read_build(const Command& c, size_t at) {
  BuildLine b;
  const auto& a = c.argv;
  for (size_t i = at + 1; i < a.size(); ++i) {
    const std::string& w = a[i].text;
    bool unknown = !a[i].resolved;
    auto take = [&](const std::string& name, std::string value, bool ok) {
      if (!ok) return;
      if (name == "-t" || name == "--tag") b.tags.push_back(std::move(value));
      else if (name == "-f" || name == "--file") b.file = std::move(value);
    };
    if (size_t eq = w.find('='); starts_with(w, "--") && eq != std::string::npos) {
      take(w.substr(0, eq), w.substr(eq + 1), !unknown);
    } else if (value_option(w) && i + 1 < a.size()) {
      ++i;
      take(w, a[i].text, a[i].resolved);
    } else if (!w.empty() && w[0] != '-') {
      b.context = unknown ? std::string() : w;
    }
  }
  return b;
}

}  // namespace

void Project::find_local_images() {
  local_images_.clear();
  for (const auto& up : files)
    for (const Command& c : up->facts->commands) {
      size_t at = build_word(c);
      if (at == 0) continue;
      BuildLine b = read_build(c, at);
      if (b.tags.empty() || b.context.empty()) continue;
      std::string file = b.file.empty() ? path_in_dir(b.context, "Dockerfile") : b.file;
      const ParsedFile* df = resolve(*up, file);
      if (!df) df = find(path_in_dir("", file));
      if (!df || df->facts->kind != FileKind::Dockerfile) continue;
      for (const std::string& t : b.tags) local_images_.emplace(image_key(t), df);
    }
}

// The project's Dockerfile that builds `ref`, as written in `from` (never `from` itself).
const ParsedFile* Project::local_image(const ParsedFile& from, const std::string& ref) const {
  std::string key = image_key(ref);
  if (key.empty() || key.find('$') != std::string::npos) return nullptr;
  if (auto it = local_images_.find(key); it != local_images_.end() && it->second != &from) return it->second;
  // a bare name (no registry, tag or digest) beside or under the root: NAME/Dockerfile
  if (key.find_first_of("/:@.") != std::string::npos) return nullptr;
  std::string here = folder_of(std::string(from.src.path()));
  for (const std::string& dir : {folder_of(here), here, std::string()}) {
    const ParsedFile* df = find(path_in_dir(dir, key + "/Dockerfile"));
    if (df && df != &from && df->facts->kind == FileKind::Dockerfile) return df;
  }
  return nullptr;
}

}  // namespace sc
