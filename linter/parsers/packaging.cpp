// SPDX-License-Identifier: Apache-2.0
// Packaging syntax: PEP 508 requirements, conda match specs, and pip/uv/conda
// command lines turned into Install facts. No domain judgement here.
#include "parsers/packaging.h"
#include "core/path_names.h"

#include "core/registry.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace sc {

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

std::string url_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      unsigned v = 0;
      std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16);
      out += static_cast<char>(v);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}


// "torch-2.7.1+cu128-cp310-cp310-manylinux_2_28_aarch64.whl" -> name, version.
bool wheel_name_version(std::string_view file, std::string& name, std::string& version) {
  std::string f = url_decode(base_name(file));
  if (!ends_with(lower(f), ".whl")) return false;
  auto parts = split(f.substr(0, f.size() - 4), '-');
  if (parts.size() < 3) return false;
  name = parts[0];
  version = parts[1];
  return true;
}

void fill_specifier(Requirement& r) {
  std::string spec;
  for (char c : r.specifier)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '(' && c != ')') spec += c;
  r.specifier = spec;
  for (auto& clause : split(spec, ',')) {
    if (clause.empty()) continue;
    std::string op, ver;
    for (std::string_view o : {"===", "==", "~=", "!=", "<=", ">=", "<", ">", "="}) {
      if (starts_with(clause, o)) { op = std::string(o); ver = clause.substr(o.size()); break; }
    }
    if (op.empty()) continue;
    if (op == "<" || op == "<=" || op == "~=" || op == "===" ) r.has_upper_bound = true;
    if (op == "==") {
      r.has_upper_bound = true;
      if (ver.find('*') == std::string::npos) r.exact_version = ver;
    }
    if (op == "===") r.exact_version = ver;
    if (op == "==" || op == "===" || op == "~=" || op == ">=") {
      size_t plus = ver.find('+');
      if (plus != std::string::npos) r.local_version = lower(ver.substr(plus + 1));
    }
  }
}

}  // namespace

std::string normalize_pkg_name(std::string_view name) {
  std::string out;
  bool sep = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The repository name of a VCS URL with no `#egg=` (`git+https://github.com/org/NAME.git@v1`):
// pip names the package from its metadata, which is the repository's name for nearly every ML
// project (flash-attention's is flash-attn: knowledge/packages.yaml lists both). "" otherwise.
std::string vcs_repo_name(const std::string& url) {
  if (!starts_with(url, "git+")) return "";
  std::string u = url.substr(0, url.find_first_of("#?"));
  size_t scheme = u.find("://");
  size_t at = u.rfind('@');
  if (at != std::string::npos && (scheme == std::string::npos || at > scheme)) u = u.substr(0, at);
  while (!u.empty() && u.back() == '/') u.pop_back();
  std::string last = u.substr(u.rfind('/') + 1);
  if (ends_with(lower(last), ".git")) last.resize(last.size() - 4);
  if (last.empty() || scheme == std::string::npos || u.rfind('/') <= scheme + 2) return "";
  return normalize_pkg_name(last);
}

bool parse_requirement(std::string_view text, Requirement& r) {
  std::string t = trim(text);
  if (t.empty() || t[0] == '-' || t[0] == '#') return false;
  r.raw = t;
  // Marker: text after ';' (URL requirements need a space before it).
  std::string body = t;
  size_t semi = t.find(';');
  if (semi != std::string::npos) {
    bool is_url = t.find("://") != std::string::npos;
    if (!is_url || (semi > 0 && std::isspace(static_cast<unsigned char>(t[semi - 1])))) {
      r.marker = trim(std::string_view(t).substr(semi + 1));
      body = trim(std::string_view(t).substr(0, semi));
    }
  }
  // Bare URL or path to a wheel / archive / VCS checkout.
  bool has_scheme = body.find("://") != std::string::npos;
  size_t at = body.find('@');
  bool named_url = at != std::string::npos && has_scheme && at < body.find("://");
  if ((has_scheme && !named_url) || starts_with(body, "git+") || starts_with(body, ".") ||
      starts_with(body, "/") || ends_with(lower(body), ".whl") || ends_with(lower(body), ".tar.gz") ||
      ends_with(lower(body), ".zip")) {
    r.url = body;
    std::string name, version;
    if (wheel_name_version(body, name, version)) {
      r.name = normalize_pkg_name(name);
      r.specifier = "==" + version;
      fill_specifier(r);
    } else {
      size_t egg = body.find("#egg=");
      if (egg != std::string::npos) {
        std::string e = body.substr(egg + 5);
        size_t amp = e.find('&');
        r.name = normalize_pkg_name(e.substr(0, amp));
      } else {
        r.name = vcs_repo_name(body);  // git+https://github.com/ORG/NAME[.git][@ref]: NAME
      }
    }
    return true;
  }
  size_t i = 0;
  while (i < body.size() && is_name_char(body[i])) ++i;
  if (i == 0 || !std::isalnum(static_cast<unsigned char>(body[0]))) return false;
  r.name = normalize_pkg_name(body.substr(0, i));
  while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
  if (i < body.size() && body[i] == '[') {
    size_t close = body.find(']', i);
    if (close == std::string::npos) return false;
    for (auto& e : split(std::string_view(body).substr(i + 1, close - i - 1), ',')) {
      std::string x = lower(trim(e));
      if (!x.empty()) r.extras.push_back(x);
    }
    i = close + 1;
  }
  std::string rest = trim(std::string_view(body).substr(i));
  if (!rest.empty() && rest[0] == '@') {
    r.url = trim(std::string_view(rest).substr(1));
    std::string name, version;
    if (wheel_name_version(r.url, name, version)) {
      r.specifier = "==" + version;
      fill_specifier(r);
    }
    return true;
  }
  if (!rest.empty() && rest.find_first_of("=<>!~(") != 0) return false;  // junk after the name
  r.specifier = rest;
  fill_specifier(r);
  return true;
}

bool parse_conda_spec(std::string_view text, Requirement& r) {
  std::string t = trim(text);
  if (t.empty() || t[0] == '-' || t[0] == '#') return false;
  r.raw = t;
  size_t cc = t.find("::");
  if (cc != std::string::npos) t = t.substr(cc + 2);
  // Bracket options: name[version='>=1',build=cuda126*]
  std::string build;
  size_t br = t.find('[');
  if (br != std::string::npos) {
    size_t close = t.find(']', br);
    std::string inner = t.substr(br + 1, close == std::string::npos ? std::string::npos : close - br - 1);
    for (auto& kv : split(inner, ',')) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos) continue;
      std::string k = trim(std::string_view(kv).substr(0, eq));
      std::string v = trim(std::string_view(kv).substr(eq + 1));
      if (v.size() >= 2 && (v[0] == '\'' || v[0] == '"')) v = v.substr(1, v.size() - 2);
      if (k == "build") build = v;
      else if (k == "version") r.specifier = v;
    }
    t = t.substr(0, br);
  }
  size_t i = 0;
  while (i < t.size() && is_name_char(t[i])) ++i;
  if (i == 0) return false;
  r.name = normalize_pkg_name(t.substr(0, i));
  std::string rest = trim(std::string_view(t).substr(i));
  if (!rest.empty()) {
    if (rest[0] != '=' && rest.find_first_of("<>!~") != 0) {
      // space form: "numpy 1.26 py311_0"
      auto toks = split(rest, ' ');
      std::vector<std::string> words;
      for (auto& w : toks)
        if (!trim(w).empty()) words.push_back(trim(w));
      if (!words.empty()) rest = "=" + words[0] + (words.size() > 1 ? "=" + words[1] : "");
    }
    if (rest.size() > 1 && rest[0] == '=' && rest[1] != '=') {
      auto parts = split(rest.substr(1), '=');
      std::string ver = parts[0];
      if (parts.size() > 1) build = parts[1];
      r.specifier = "=" + ver;
      if (!build.empty() && ver.find('*') == std::string::npos) r.exact_version = ver;
      // conda "=1.2" means "1.2.*": bounded above.
      r.has_upper_bound = true;
    } else {
      r.specifier = rest;
      fill_specifier(r);
    }
  }
  std::string b = lower(build);
  size_t cu = b.find("cuda");
  if (cu != std::string::npos) {
    size_t j = cu + 4;
    std::string digits;
    while (j < b.size() && std::isdigit(static_cast<unsigned char>(b[j]))) digits += b[j++];
    if (!digits.empty()) r.local_version = "cu" + digits;
  }
  return true;
}

// ---------------------------------------------------------------------------
// install commands

namespace {

bool is_pip_name(const std::string& b) {
  if (b == "pip" || b == "pip3") return true;
  if (!starts_with(b, "pip3.")) return false;
  return b.size() > 5 && std::all_of(b.begin() + 5, b.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_python_name(const std::string& b) {
  if (b == "python" || b == "python3" || b == "py") return true;
  if (!starts_with(b, "python3.") && !starts_with(b, "python2.")) return false;
  return std::all_of(b.begin() + 8, b.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool truthy(const std::string& v) {
  std::string l = lower(v);
  return l == "1" || l == "true" || l == "yes" || l == "on";
}


struct Arg {
  const Word* w;
  std::string name;  // option name ("--index-url") when an option
  std::string value;
  Location vloc;
};

// "[https://x](https://x)", a Markdown link pasted from rendered docs (a shell splits it at
// the parenthesis: "[https://x]"): the URL inside the brackets.
std::string unlinked(const std::string& url) {
  size_t close = url.find(']');
  if (url.size() < 3 || url[0] != '[' || close == std::string::npos || close < 2) return url;
  return url.substr(1, close - 1);
}

void add_index(Install& in, const std::string& url, IndexRole role, const Location& loc) {
  if (url.empty()) return;
  // PIP_EXTRA_INDEX_URL may carry several URLs separated by spaces.
  for (auto& u : split(url, ' ')) {
    std::string x = unlinked(trim(u));
    if (!x.empty()) in.indexes.push_back({x, role, loc});
  }
}

void apply_env(Install& in, const std::string& name, const std::string& value, const Location& loc) {
  if (name == "PIP_INDEX_URL" || name == "UV_INDEX_URL" || name == "UV_DEFAULT_INDEX")
    add_index(in, value, IndexRole::IndexUrl, loc);
  else if (name == "PIP_EXTRA_INDEX_URL" || name == "UV_EXTRA_INDEX_URL" || name == "UV_INDEX")
    add_index(in, value, IndexRole::ExtraIndexUrl, loc);
  else if (name == "PIP_FIND_LINKS" || name == "UV_FIND_LINKS")
    add_index(in, value, IndexRole::FindLinks, loc);
  else if (name == "UV_TORCH_BACKEND" && !value.empty()) {
    in.torch_backend = true;
    in.torch_backend_value = value;
  } else if (name == "PIP_NO_DEPS" && truthy(value))
    in.no_deps = true;
  else if (name == "PIP_NO_INDEX" && truthy(value))
    in.no_index = true;
  else if ((name == "PIP_CONSTRAINT" || name == "UV_CONSTRAINT" || name == "UV_OVERRIDE") && !value.empty())
    in.constraint_files.push_back({value, loc});
}

// "--index-url=URL" -> name, value (true); anything else -> name = t (false).
bool split_long_opt(const std::string& t, std::string& name, std::string& value) {
  size_t eq = t.find('=');
  if (starts_with(t, "--") && eq != std::string::npos) {
    name = t.substr(0, eq);
    value = t.substr(eq + 1);
    return true;
  }
  name = t;
  return false;
}

// `.`, `./pkg[extra]`, `/opt/src/x`: a project directory, not a wheel or archive file.
bool local_directory(std::string_view url) {
  std::string l = lower(url);
  if (url.find("://") != std::string_view::npos || starts_with(l, "git+")) return false;
  return !ends_with(l, ".whl") && !ends_with(l, ".tar.gz") && !ends_with(l, ".zip");
}

}  // namespace

std::optional<PipOption> pip_option(std::string_view name) {
  using O = PipOption;
  static const std::unordered_map<std::string_view, PipOption> spellings = {
      {"-r", O::Requirement}, {"--requirement", O::Requirement}, {"--requirements", O::Requirement},
      {"-c", O::Constraint}, {"--constraint", O::Constraint}, {"--constraints", O::Constraint},
      {"--override", O::Constraint}, {"--overrides", O::Constraint}, {"--build-constraint", O::Constraint},
      {"-b", O::Constraint}, {"--build-constraints", O::Constraint},
      {"-i", O::IndexUrl}, {"--index-url", O::IndexUrl}, {"--default-index", O::IndexUrl},
      {"--extra-index-url", O::ExtraIndexUrl}, {"--index", O::ExtraIndexUrl},
      {"-f", O::FindLinks}, {"--find-links", O::FindLinks},
      {"--torch-backend", O::TorchBackend}, {"-e", O::Editable}, {"--editable", O::Editable},
      {"--no-deps", O::NoDeps}, {"--no-dependencies", O::NoDeps}, {"--no-index", O::NoIndex},
      {"-U", O::Upgrade}, {"--upgrade", O::Upgrade}, {"--force-reinstall", O::Upgrade}, {"--reinstall", O::Upgrade},
      {"--pre", O::OtherFlag}, {"--prefer-binary", O::OtherFlag}, {"--require-hashes", O::OtherFlag},
      {"-t", O::OtherValued}, {"--target", O::OtherValued}, {"--prefix", O::OtherValued}, {"--root", O::OtherValued},
      {"--python", O::OtherValued}, {"-p", O::OtherValued}, {"--platform", O::OtherValued},
      {"--only-binary", O::OtherValued}, {"--no-binary", O::OtherValued}, {"--trusted-host", O::OtherValued},
      {"--cache-dir", O::OtherValued}, {"--config-settings", O::OtherValued}, {"-C", O::OtherValued},
      {"--global-option", O::OtherValued}, {"--build-option", O::OtherValued}, {"--use-feature", O::OtherValued},
      {"--src", O::OtherValued}, {"--progress-bar", O::OtherValued}, {"--log", O::OtherValued},
      {"--timeout", O::OtherValued}, {"--retries", O::OtherValued}, {"--index-strategy", O::OtherValued},
      {"--extra", O::OtherValued}, {"--group", O::OtherValued}, {"--optional", O::OtherValued},
      {"--python-version", O::OtherValued}, {"--abi", O::OtherValued}, {"--implementation", O::OtherValued},
      {"--report", O::OtherValued}, {"--upgrade-strategy", O::OtherValued}, {"--exists-action", O::OtherValued},
      {"--keyring-provider", O::OtherValued}, {"--python-platform", O::OtherValued}, {"--cert", O::OtherValued},
      {"--client-cert", O::OtherValued}, {"--proxy", O::OtherValued}, {"--root-user-action", O::OtherValued},
      {"--rev", O::OtherValued}, {"--tag", O::OtherValued}, {"--branch", O::OtherValued},
      {"--bounds", O::OtherValued}, {"--package", O::OtherValued}, {"--upgrade-package", O::OtherValued},
      {"-P", O::OtherValued}, {"--reinstall-package", O::OtherValued}, {"--resolution", O::OtherValued},
      {"--prerelease", O::OtherValued}, {"--link-mode", O::OtherValued}, {"--exclude-newer", O::OtherValued},
      {"--config-file", O::OtherValued}, {"--directory", O::OtherValued}, {"--project", O::OtherValued},
      {"--script", O::OtherValued}, {"--no-binary-package", O::OtherValued}, {"--no-build-package", O::OtherValued},
      {"--refresh-package", O::OtherValued}, {"--only-group", O::OtherValued}, {"--no-group", O::OtherValued}};
  auto it = spellings.find(name);
  return it == spellings.end() ? std::nullopt : std::optional<PipOption>(it->second);
}

bool pip_option_valued(PipOption o) {
  return o != PipOption::NoDeps && o != PipOption::NoIndex && o != PipOption::Upgrade && o != PipOption::OtherFlag;
}

void apply_pip_option(Install& in, PipOption o, const std::string& value, const Location& loc) {
  switch (o) {
    case PipOption::Requirement: in.requirement_files.push_back({value, loc}); break;
    // uv takes a file here; "--override torch==2.10.0+cu130" written inline is still a pin, and
    // the rules read it as one (the linker does not resolve spec-like values)
    case PipOption::Constraint: in.constraint_files.push_back({value, loc}); break;
    case PipOption::IndexUrl: add_index(in, value, IndexRole::IndexUrl, loc); break;
    case PipOption::ExtraIndexUrl: add_index(in, value, IndexRole::ExtraIndexUrl, loc); break;
    case PipOption::FindLinks: add_index(in, value, IndexRole::FindLinks, loc); break;
    case PipOption::TorchBackend:
      in.torch_backend = true;
      in.torch_backend_value = value;
      break;
    case PipOption::Editable: {
      Requirement r;
      if (parse_requirement(value, r) && !r.name.empty()) {
        r.loc = loc;
        in.packages.push_back(std::move(r));
      } else if (!r.url.empty()) {
        in.local_project = in.local_project || local_directory(r.url);
      }
      break;
    }
    case PipOption::NoDeps: in.no_deps = true; break;
    case PipOption::NoIndex: in.no_index = true; break;
    case PipOption::Upgrade: in.upgrade = true; break;
    case PipOption::OtherValued:
    case PipOption::OtherFlag: break;
  }
}

namespace {

void add_package(Install& in, const Word& w, bool conda) {
  if (!w.resolved) return;  // "$SPEC", "torch==${VERSION}": unknown, never guessed
  if (w.text.empty()) return;
  Requirement r;
  bool ok = conda ? parse_conda_spec(w.text, r) : parse_requirement(w.text, r);
  if (!ok) return;
  r.loc = w.loc;
  if (!r.url.empty() && r.name.empty()) {  // a local path or nameless URL
    in.local_project = in.local_project || local_directory(r.url);
    return;
  }
  in.packages.push_back(std::move(r));
}

// Parse argv[start..] of a pip/uv pip install or uv add command.
void parse_pip_args(const Command& c, size_t start, Install& in) {
  const auto& a = c.argv;
  for (size_t i = start; i < a.size(); ++i) {
    const Word& w = a[i];
    const std::string& t = w.text;
    if (t.empty()) continue;
    if (t == "--") continue;
    if (t[0] != '-') {
      add_package(in, w, false);
      continue;
    }
    std::string name, value;
    bool has_inline = split_long_opt(t, name, value);
    Location vloc = w.loc;
    // Short option with attached value: -rrequirements.txt
    if (!has_inline && !starts_with(t, "--") && t.size() > 2 &&
        (t[1] == 'r' || t[1] == 'c' || t[1] == 'i' || t[1] == 'f' || t[1] == 'e') &&
        t.find_first_not_of("qvUI", 1) == 1) {
      name = t.substr(0, 2);
      value = t.substr(2);
      has_inline = true;
    }
    std::optional<PipOption> opt = pip_option(name);
    if (!opt && !starts_with(name, "--") && name.size() > 2 && name.find_first_not_of("qvUIy", 1) == std::string::npos) {
      if (name.find('U') != std::string::npos) in.upgrade = true;  // -qU
      continue;
    }
    if (!opt) continue;
    if (pip_option_valued(*opt) && !has_inline) {
      if (i + 1 >= a.size()) break;
      value = a[++i].text;
      vloc = a[i].loc;
      // an index given through an unknown variable (or one expanded to nothing, as
      // `ARG URL=""`) is still an index: keep its written form so rules neither read a
      // CUDA version nor assume the default
      bool empty_var = a[i].text.empty() && a[i].raw.find('$') != std::string::npos;
      if (!a[i].resolved || empty_var) value = a[i].raw.empty() ? "$unresolved" : a[i].raw;
    }
    apply_pip_option(in, *opt, value, vloc);
  }
}

void parse_conda_args(const Command& c, size_t start, Install& in) {
  static const std::set<std::string> valued = {"-c", "--channel", "-n", "--name", "-p", "--prefix",
                                                "--file", "--solver", "--repodata-fn", "-r", "--root-prefix"};
  const auto& a = c.argv;
  for (size_t i = start; i < a.size(); ++i) {
    const Word& w = a[i];
    const std::string& t = w.text;
    if (t.empty()) continue;
    if (t[0] != '-') {
      add_package(in, w, true);
      continue;
    }
    std::string name, value;
    bool inline_v = split_long_opt(t, name, value);
    if (!valued.count(name)) continue;
    Location vloc = w.loc;
    if (!inline_v) {
      if (i + 1 >= a.size()) break;
      value = a[++i].text;
      vloc = a[i].loc;
    }
    if (name == "-c" || name == "--channel") in.indexes.push_back({value, IndexRole::CondaChannel, vloc});
  }
}

// The words of pipx's `--pip-args "..."` / `--pip-args=...` at argv[k], added to `pip`; returns
// the index of the last word it used.
size_t pipx_pip_args(const std::vector<Word>& a, size_t k, Command& pip) {
  const Word* v = &a[k];
  std::string text;
  if (size_t eq = v->text.find('='); eq != std::string::npos) {
    text = v->text.substr(eq + 1);
  } else if (k + 1 < a.size()) {
    v = &a[++k];
    text = v->text;
  }
  for (const std::string& part : split(text, ' '))
    if (!part.empty()) pip.argv.push_back(Word{part, part, v->resolved, v->loc});
  return k;
}

// `pipx install [opts] PKG...` / `pipx inject [opts] VENV PKG...`: pipx makes a venv of its own and
// pip-installs the packages into it. The words pip would get: the packages, pipx's
// `--index-url`/`-e`, and the words of `--pip-args`; pipx's own valued options and the venv
// name of `inject` are dropped. Null when the command is not a pipx install.
std::optional<Command> pipx_pip_words(const Command& c, size_t i) {
  const auto& a = c.argv;
  if (i + 1 >= a.size() || (a[i + 1].text != "install" && a[i + 1].text != "inject")) return std::nullopt;
  static const std::set<std::string> own = {"--python", "--suffix", "--preinstall", "--backend"};
  bool venv_left = a[i + 1].text == "inject";
  Command pip;
  for (size_t k = i + 2; k < a.size(); ++k) {
    const std::string& t = a[k].text;
    std::string name = t.substr(0, t.find('='));
    if (name == "--pip-args") {
      k = pipx_pip_args(a, k, pip);
    } else if (own.count(name)) {
      k += t.find('=') == std::string::npos ? 1 : 0;
    } else if (venv_left && !t.empty() && t[0] != '-') {
      venv_left = false;
    } else {
      pip.argv.push_back(a[k]);
    }
  }
  return pip;
}

// The first word after `conda run`'s options (-n ENV, -p PATH, --no-capture-output...).
size_t after_conda_run(const std::vector<Word>& a, size_t i) {
  static const std::set<std::string, std::less<>> with_value = {"-n", "--name", "-p", "--prefix", "--cwd"};
  while (i < a.size() && starts_with(a[i].text, "-")) i += with_value.count(a[i].text) ? 2 : 1;
  return i;
}

std::string base_program(const Word& w) {
  std::string t = w.text;
  if (!w.resolved && t.empty()) t = w.raw;
  return base_name(t);
}

}  // namespace

void derive_installs(FileFacts& f) {
  for (const Command& c : f.commands) {
    const auto& a = c.argv;
    size_t i = 0;
    std::vector<std::pair<std::string, Word>> envs = c.env;
    // Wrappers: sudo [-E -H], env [VAR=x], time, nohup, exec, command.
    while (i < a.size()) {
      std::string b = base_program(a[i]);
      if (b == "sudo" || b == "env") {
        ++i;
        while (i < a.size() && (starts_with(a[i].text, "-") || a[i].text.find('=') != std::string::npos)) {
          size_t eq = a[i].text.find('=');
          if (eq != std::string::npos && !starts_with(a[i].text, "-"))
            envs.push_back({a[i].text.substr(0, eq), Word{a[i].text.substr(eq + 1), a[i].raw, a[i].resolved, a[i].loc}});
          ++i;
        }
      } else if (b == "time" || b == "nohup" || b == "exec" || b == "command" || b == "stdbuf") {
        ++i;
      } else if ((b == "conda" || b == "mamba" || b == "micromamba") && i + 1 < a.size() && a[i + 1].text == "run") {
        i = after_conda_run(a, i + 2);
      } else {
        break;
      }
    }
    if (i >= a.size()) continue;
    std::string prog = base_program(a[i]);
    Install in;
    size_t start = 0;
    bool conda = false;
    std::optional<Command> pipx;  // the words pip gets from a pipx install
    auto word = [&](size_t k) -> std::string { return k < a.size() ? a[k].text : std::string(); };
    if (is_pip_name(prog) && word(i + 1) == "install") {
      in.tool = Installer::Pip;
      start = i + 2;
    } else if ((is_python_name(prog) || (!a[i].resolved && lower(a[i].raw).find("python") != std::string::npos))) {
      // python -m pip install / python -m uv pip install; skip interpreter flags like -u, -I.
      size_t k = i + 1;
      while (k < a.size() && starts_with(a[k].text, "-") && a[k].text != "-m") ++k;
      if (word(k) == "-m" && word(k + 1) == "pip" && word(k + 2) == "install") {
        in.tool = Installer::Pip;
        start = k + 3;
      } else if (word(k) == "-m" && word(k + 1) == "uv" && word(k + 2) == "pip" && word(k + 3) == "install") {
        in.tool = Installer::UvPip;
        start = k + 4;
      } else {
        continue;
      }
    } else if (prog == "uv") {
      size_t k = i + 1;
      while (k < a.size() && starts_with(a[k].text, "-")) ++k;  // uv --quiet pip ...
      if (word(k) == "pip" && word(k + 1) == "install") {
        in.tool = Installer::UvPip;
        start = k + 2;
      } else if (word(k) == "add") {
        in.tool = Installer::UvAdd;
        start = k + 1;
      } else {
        continue;
      }
    } else if (prog == "pipx") {
      pipx = pipx_pip_words(c, i);
      if (!pipx) continue;
      in.tool = Installer::Pip;
    } else if (prog == "conda" || prog == "mamba" || prog == "micromamba") {
      if (word(i + 1) == "install" || word(i + 1) == "create") {
        in.tool = Installer::Conda;
        start = i + 2;
        conda = true;
      } else {
        continue;
      }
    } else {
      continue;
    }
    in.stage = c.stage;
    in.loc = c.loc;
    // Settings earlier in the same file/stage (ENV, ARG, export) apply to the command.
    // ENV/ARG of the stage and of the stages it builds on (FROM <stage>).
    std::set<int> chain = {c.stage};
    for (int s = c.stage; s >= 0 && s < static_cast<int>(f.images.size()) && f.images[s].from_stage;) {
      s = f.images[s].parent_stage;
      if (!chain.insert(s).second) break;
    }
    for (const EnvSetting& e : f.env) {
      if (conda || !chain.count(e.stage)) continue;
      if (e.stage != c.stage && e.origin == EnvOrigin::Arg) continue;  // ARGs do not cross stages
      if (e.loc.range.line >= c.loc.range.line && c.loc.range.valid()) continue;
      apply_env(in, e.name, e.value, e.loc);
    }
    if (!conda)
      for (auto& [n, w] : envs) apply_env(in, n, w.text, w.loc);
    if (conda) parse_conda_args(c, start, in);
    else parse_pip_args(pipx ? *pipx : c, pipx ? 0 : start, in);
    f.installs.push_back(std::move(in));
  }
}

SPARKCHECK_POST_PARSE(derive_installs);

}  // namespace sc
