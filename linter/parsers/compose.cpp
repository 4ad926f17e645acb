// SPDX-License-Identifier: Apache-2.0
// Docker Compose files: the YAML is read as config like any YAML file, and each
// service's `command:` / `entrypoint:` (string or list) becomes Command facts
// with its `environment:` as the shell's known variables; `environment:` and
// `build.args` become EnvSetting facts, `image:` an Image fact, `build.dockerfile`
// a FileRef.
#include <algorithm>
#include <map>

#include "parsers/config.h"
#include "parsers/embedded.h"
#include "parsers/shell.h"

namespace sc {
namespace {

struct Service {
  std::vector<const ConfigEntry*> command, entrypoint;  // one scalar, or list items
  std::vector<const ConfigEntry*> environment, args, volumes;
  const ConfigEntry* image = nullptr;
  const ConfigEntry* dockerfile = nullptr;
  const ConfigEntry* context = nullptr;  // `build: DIR` or `build.context`
  bool gpu = false;  // ComposeService::gpu
};

// Does `services.NAME.KEY...` ask for a GPU, or could it bring one in (a merge, `extends`)?
bool gpu_entry(const ConfigEntry& e) {
  const auto& p = e.path;
  const std::string& k = p[2];
  auto has = [](const std::string& s, std::string_view w) { return lower(s).find(w) != std::string::npos; };
  if (k == "<<" || k == "extends" || k == "gpus") return true;
  if (k == "deploy") return std::find(p.begin(), p.end(), "devices") != p.end();
  if (k == "runtime" || k == "devices") return has(e.value, "nvidia");
  if (k == "environment") return has(e.key(), "nvidia_") || has(e.value, "nvidia_");
  return false;
}

// "A=1" list items or `A: 1` map entries -> (name, value).
std::pair<std::string, std::string> env_pair(const ConfigEntry& e) {
  if (e.key().empty() || e.key()[0] != '[') return {e.key(), e.value};
  size_t eq = e.value.find('=');
  if (eq == std::string::npos) return {e.value, ""};
  return {e.value.substr(0, eq), e.value.substr(eq + 1)};
}

// Files one `services.NAME....` scalar under the key it belongs to.
void classify(Service& s, const ConfigEntry& e) {
  const auto& p = e.path;
  const std::string& k = p[2];
  bool item = p.size() == 4 && starts_with(p[3], "[");
  if ((k == "command" || k == "entrypoint") && (p.size() == 3 || item))
    (k == "command" ? s.command : s.entrypoint).push_back(&e);
  else if (k == "environment" && p.size() == 4) s.environment.push_back(&e);
  else if (k == "volumes" && item) s.volumes.push_back(&e);
  else if (k == "image" && p.size() == 3) s.image = &e;
  else if (k == "build" && p.size() == 4 && p[3] == "dockerfile") s.dockerfile = &e;
  else if (k == "build" && (p.size() == 3 || (p.size() == 4 && p[3] == "context"))) s.context = &e;
  else if (k == "build" && p.size() == 5 && p[3] == "args") s.args.push_back(&e);
}

std::map<std::string, Service> services(const FileFacts& f) {
  std::map<std::string, Service> out;
  for (const ConfigEntry& e : f.config) {
    if (e.path.size() < 3 || e.path[0] != "services") continue;
    if (e.scalar) classify(out[e.path[1]], e);
    if (gpu_entry(e)) out[e.path[1]].gpu = true;
  }
  return out;
}

class ComposeReader {
 public:
  ComposeReader(const SourceFile& src, FileFacts& out, ParseDiag& diag) : src_(src), out_(out), diag_(diag) {}

  void service(const std::string& name, const Service& s) {
    size_t env_first = out_.env.size(), builds_first = out_.builds.size();
    ComposeService cs{name, {}, "", "", mounts(s), out_.commands.size(), 0, s.gpu};
    size_t images_first = out_.images.size();
    commands(s);  // the service's `image:` is its first image fact
    if (s.image && out_.images.size() > images_first) cs.image = out_.images[images_first].ref;
    cs.end_command = out_.commands.size();
    if (out_.builds.size() > builds_first) cs.dockerfile = out_.builds.back().dockerfile;
    cs.env.assign(out_.env.begin() + static_cast<long>(env_first), out_.env.end());
    std::erase_if(cs.env, [](const EnvSetting& e) { return e.origin != EnvOrigin::Yaml; });
    out_.services.push_back(std::move(cs));
  }

 private:
  const SourceFile& src_;
  FileFacts& out_;
  ParseDiag& diag_;

  // `- ./run.sh:/app/run.sh[:ro]` bind mounts (named volumes have no '/' or '.' start);
  // `${FILE:-./run.sh}:/app/run.sh` keeps the host part as written.
  static std::vector<std::pair<std::string, std::string>> mounts(const Service& s) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const ConfigEntry* e : s.volumes) {
      const std::string& v = e->value;
      size_t close = starts_with(v, "${") ? v.find('}') : 0;
      size_t c = close == std::string::npos ? close : v.find(':', close);
      if (c == std::string::npos || (v[0] != '.' && v[0] != '/' && v[0] != '$')) continue;
      size_t c2 = v.find(':', c + 1);
      out.emplace_back(v.substr(0, c), v.substr(c + 1, c2 == std::string::npos ? std::string::npos : c2 - c - 1));
    }
    return out;
  }

  void commands(const Service& s) {
    std::map<std::string, std::string> vars;
    for (const ConfigEntry* e : s.environment) env(*e, EnvOrigin::Yaml, &vars);
    for (const ConfigEntry* e : s.args) env(*e, EnvOrigin::BuildArg, nullptr);
    int stage = -1;
    if (s.image) stage = image(*s.image, !s.dockerfile && !s.context);
    if (s.dockerfile) out_.refs.push_back({s.dockerfile->value, RefKind::Dockerfile, "", -1, s.dockerfile->value_loc});
    if (s.dockerfile || s.context) build(s);
    size_t first = out_.commands.size();
    service_commands(s, vars);
    // an `image:` service runs its commands in that image, as `docker run IMAGE cmd` does
    for (size_t i = first; stage >= 0 && i < out_.commands.size(); ++i) out_.commands.edit()[i].stage = stage;
  }

  void service_commands(const Service& s, const std::map<std::string, std::string>& vars) {
    // entrypoint then command: the container runs them as one argv
    std::vector<const ConfigEntry*> all;
    for (const ConfigEntry* e : s.entrypoint)  // `entrypoint: ""` resets the image's: no word
      if (!(e->scalar && e->value.empty())) all.push_back(e);
    all.insert(all.end(), s.command.begin(), s.command.end());
    if (all.size() == 1 && !starts_with(all[0]->key(), "[")) return script(*all[0], vars);
    if (all.empty()) return;
    if (const ConfigEntry* body = yaml_argv(all, CommandContext::Compose, out_)) script(*body, vars);
  }

  void env(const ConfigEntry& e, EnvOrigin origin, std::map<std::string, std::string>* vars) {
    auto [name, value] = env_pair(e);
    if (name.empty()) return;
    out_.env.push_back({name, value, origin, -1, e.value_loc});
    if (vars) (*vars)[name] = value;
  }

  // The service's image; with `own_stage` (no build:) it gets a stage of its own, its index,
  // returned (-1 otherwise).
  int image(const ConfigEntry& e, bool own_stage) {
    size_t n = out_.images.size();
    yaml_image(e, e.value, out_);
    if (!own_stage || out_.images.size() == n) return -1;
    out_.images.edit().back().stage = static_cast<int>(n);
    return static_cast<int>(n);
  }

  // build: DIR / build: {context: DIR, dockerfile: FILE, args: ...}; a remote context
  // (git URL) or a variable in the path is not followed.
  void build(const Service& s) {
    std::string ctx = s.context ? s.context->value : ".";
    std::string file = s.dockerfile ? s.dockerfile->value : "Dockerfile";
    if (ctx.find("://") != std::string::npos || ctx.find('$') != std::string::npos || file.find('$') != std::string::npos)
      return;
    BuildSpec b;
    b.dockerfile = file.empty() || file[0] == '/' ? file : (ctx.empty() ? "." : ctx) + "/" + file;
    b.loc = (s.dockerfile ? s.dockerfile : s.context)->value_loc;
    for (const ConfigEntry* e : s.args) {
      auto [name, value] = env_pair(*e);
      Expanded x = expand_word(value, {});  // ${TAG:-25.11} takes its default; ${TAG}: unknown
      if (!name.empty() && x.resolved && !x.text.empty())
        b.args.push_back({name, x.text, EnvOrigin::BuildArg, -1, e->value_loc});
    }
    out_.builds.push_back(std::move(b));
  }

  // Does a quoted string run over a line end (a `bash -c "..."` script whose lines matter)?
  static bool quote_spans_lines(const std::string& s) {
    for (const std::string& line : split(s, '\n'))
      if (std::count(line.begin(), line.end(), '"') % 2 || std::count(line.begin(), line.end(), '\'') % 2) return true;
    return false;
  }

  // The words of `s` joined by single spaces.
  static std::string words(const std::string& s) {
    std::string r;
    for (const std::string& line : split(s, '\n'))
      for (const std::string& w : split(line, ' '))
        if (!trim(w).empty()) r += (r.empty() ? "" : " ") + trim(w);
    return r;
  }

  // `command: >` folds its lines into one: read them as one command continued
  // with `\` over the same lines, so every word keeps its place. More-indented lines keep
  // their newline in YAML, but compose splits the string into words, so a newline is a
  // space there too (not inside quotes, where a `bash -c` script needs its lines).
  bool folded(const ConfigEntry& e, std::string& text, EmbedMap& m) {
    int l = e.value_loc.range.line;
    bool lines_kept = trim(e.value).find('\n') != std::string::npos;
    if (l < 1 || l > src_.line_count() || (lines_kept && quote_spans_lines(e.value))) return false;
    std::string head = trim(src_.line(l));
    if (!ends_with(head, ">") && !ends_with(head, ">-") && !ends_with(head, ">+")) return false;
    std::string want = words(e.value), got;
    for (++l; l <= src_.line_count() && got.size() < want.size(); ++l) {
      std::string t = trim(src_.line(l));
      if (t.empty()) continue;
      if (!text.empty()) text += " \\\n";
      text += t;
      got += (got.empty() ? "" : " ") + t;
      m.add(src_, l, t);
    }
    return got == want;
  }

  void script(const ConfigEntry& e, const std::map<std::string, std::string>& vars) {
    std::string text;
    EmbedMap m;
    if (!folded(e, text, m)) {
      text = e.value;
      m = yaml_scalar_map(src_, e);
    }
    embed_shell(src_, std::move(text), m, vars, CommandContext::Compose, out_, diag_);
  }
};

class ComposeParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Yaml; }
  int priority() const override { return 5; }
  bool accepts(const FileInfo& f) const override {
    std::string n = without_template_suffix(lower(f.name));  // a committed `.sample` is copied into place
    if (!ends_with(n, ".yml") && !ends_with(n, ".yaml")) return false;
    return starts_with(n, "docker-compose") || starts_with(n, "compose.") || starts_with(n, "compose-") ||
           starts_with(n, "podman-compose");
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    yaml_entries(src, out.config.edit(), diag);
    ComposeReader r(src, out, diag);
    for (const auto& [name, s] : services(out)) r.service(name, s);
  }
};

}  // namespace

SPARKCHECK_PARSER(ComposeParser);

}  // namespace sc
