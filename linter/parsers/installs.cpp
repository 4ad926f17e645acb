// Packaging helpers: requirement / conda-spec parsing, install-command
// recognition (pip, uv, conda) and CUDA-version classification of wheel
// indexes, package names and container images.
#include "parsers/installs.h"

#include <algorithm>
#include <cctype>
#include <map>
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
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string basename_of(std::string_view p) {
  while (!p.empty() && p.back() == '/') p.remove_suffix(1);
  size_t s = p.rfind('/');
  return std::string(s == std::string_view::npos ? p : p.substr(s + 1));
}

// "torch-2.7.1+cu128-cp310-cp310-manylinux_2_28_aarch64.whl" -> name, version.
bool wheel_name_version(std::string_view file, std::string& name, std::string& version) {
  std::string f = url_decode(basename_of(file));
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

int cuda_tag_value(std::string_view tag) {
  std::string t = lower(tag);
  if (!starts_with(t, "cu") || t.size() < 4) return -1;
  for (size_t i = 2; i < t.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return -1;
  int v = std::stoi(t.substr(2));
  if (t.size() == 4) v *= 10;  // "cu12" -> 120
  return v;
}

int cuda_of_url(std::string_view url) {
  std::string u = lower(url);
  size_t q = u.find_first_of("?#");
  if (q != std::string::npos) u = u.substr(0, q);
  for (auto& seg : split(u, '/')) {
    int v = cuda_tag_value(seg);
    if (v > 0) return v;
  }
  return -1;
}

bool is_ngc_framework_image(std::string_view ref) {
  static const std::set<std::string> fw = {"pytorch", "tritonserver", "vllm", "tensorflow",
                                           "cuda-dl-base", "jax", "sglang", "pyg", "dgl",
                                           "paddlepaddle", "tensorrt", "nemo"};
  std::string r = lower(ref);
  if (!starts_with(r, "nvcr.io/nvidia/")) return false;
  std::string rest = r.substr(15);
  size_t colon = rest.find(':');
  if (colon == std::string::npos) return false;
  std::string repo = rest.substr(0, colon), tag = rest.substr(colon + 1);
  if (!fw.count(repo)) return false;
  return tag.size() >= 5 && std::isdigit(static_cast<unsigned char>(tag[0])) &&
         std::isdigit(static_cast<unsigned char>(tag[1])) && tag[2] == '.' &&
         std::isdigit(static_cast<unsigned char>(tag[3])) && std::isdigit(static_cast<unsigned char>(tag[4]));
}

ImageCuda image_cuda(std::string_view ref_in) {
  ImageCuda ic;
  std::string ref = lower(ref_in);
  size_t dig = ref.find('@');
  if (dig != std::string::npos) ref = ref.substr(0, dig);
  size_t slash = ref.rfind('/');
  size_t colon = ref.rfind(':');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return ic;
  std::string repo = ref.substr(0, colon), tag = ref.substr(colon + 1);
  auto num_at = [](const std::string& s, size_t& i) {
    int v = 0;
    bool any = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      v = v * 10 + (s[i++] - '0');
      any = true;
    }
    return any ? v : -1;
  };
  // nvidia/cuda:<major>.<minor>.<patch>-...
  if (repo == "nvidia/cuda" || ends_with(repo, "/nvidia/cuda")) {
    size_t i = 0;
    int maj = num_at(tag, i);
    if (maj > 0 && i < tag.size() && tag[i] == '.') {
      ++i;
      int min = num_at(tag, i);
      if (min >= 0) {
        ic.known = true;
        ic.major = maj;
        ic.minor = min;
        ic.how = "nvidia/cuda:" + tag + " is CUDA " + std::to_string(maj) + "." + std::to_string(min);
        return ic;
      }
    }
    return ic;
  }
  // NGC monthly framework releases: YY.MM. (The NeMo framework container's CUDA per tag is
  // not verified: it counts as an NGC framework image but its CUDA stays unknown.)
  if (is_ngc_framework_image(ref) && !starts_with(ref, "nvcr.io/nvidia/nemo:")) {
    int yymm = std::stoi(tag.substr(0, 2)) * 100 + std::stoi(tag.substr(3, 2));
    struct Row { int from; int major, minor; };
    static const Row rows[] = {{2609, 13, 4}, {2606, 13, 3}, {2603, 13, 2}, {2601, 13, 1},
                               {2508, 13, 0}, {2506, 12, 9}, {2501, 12, 8}, {2408, 12, 6},
                               {2406, 12, 5}, {2404, 12, 4}, {2401, 12, 3}, {2301, 12, 0}, {0, 11, 8}};
    for (const auto& row : rows)
      if (yymm >= row.from) {
        ic.known = true;
        ic.ngc = true;
        ic.major = row.major;
        ic.minor = row.minor;
        ic.how = "NGC " + tag.substr(0, 5) + " release (CUDA " + std::to_string(row.major) +
                 (row.major == 13 ? "" : "." + std::to_string(row.minor)) + ")";
        return ic;
      }
  }
  // Any other image whose tag spells its CUDA: "2.5.1-cuda12.4-cudnn9-devel", "latest-cu130",
  // "25.10-cuda13-py3.13".
  for (auto& part : split(tag, '-')) {
    std::string p = part;
    size_t i;
    if (starts_with(p, "cuda")) {
      i = 4;
      int maj = num_at(p, i);
      if (maj <= 0) continue;
      int min = 0;
      bool minor_known = false;
      if (i < p.size() && p[i] == '.') {
        ++i;
        min = num_at(p, i);
        minor_known = min >= 0;
        if (min < 0) min = 0;
      }
      if (maj >= 100) { min = maj % 10; maj /= 10; minor_known = true; }
      ic.known = true;
      ic.major = maj;
      ic.minor = minor_known ? min : (maj >= 13 ? 0 : -1);
      ic.how = "image tag " + tag + " names CUDA " + std::to_string(maj) +
               (minor_known ? "." + std::to_string(min) : "");
      return ic;
    }
    int v = cuda_tag_value(p);
    if (v > 0) {
      ic.known = true;
      ic.major = v / 10;
      ic.minor = v % 10;
      ic.how = "image tag " + tag + " names CUDA " + std::to_string(ic.major) + "." + std::to_string(ic.minor);
      return ic;
    }
  }
  return ic;
}

int cuda_major_of_package(const Requirement& r) {
  if (!r.local_version.empty()) {
    int v = cuda_tag_value(r.local_version);
    if (v > 0) return v / 10;
  }
  for (auto& e : r.extras) {
    if (starts_with(e, "cuda")) {
      size_t i = 4;
      int v = 0;
      bool any = false;
      while (i < e.size() && std::isdigit(static_cast<unsigned char>(e[i]))) { v = v * 10 + (e[i++] - '0'); any = true; }
      if (any && v >= 10 && v <= 14) return v;
    }
  }
  // Name segments: "-cu12", "-cu12-libs", "cupy-cuda12x", "jax-cuda12-plugin".
  for (auto& seg : split(r.name, '-')) {
    std::string s = seg;
    if (ends_with(s, "x") && starts_with(s, "cuda")) s = s.substr(0, s.size() - 1);
    std::string digits;
    if (starts_with(s, "cuda")) digits = s.substr(4);
    else if (starts_with(s, "cu")) digits = s.substr(2);
    else continue;
    if (digits.size() != 2 || !std::isdigit(static_cast<unsigned char>(digits[0])) ||
        !std::isdigit(static_cast<unsigned char>(digits[1])))
      continue;
    int v = std::stoi(digits);
    if (v >= 10 && v <= 14) return v;
  }
  if (r.name == "sgl-kernel" && r.url.empty()) return 12;  // PyPI build links libcudart.so.12
  return 0;
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

// pip / uv options that consume the following word.
const std::set<std::string>& pip_value_opts() {
  static const std::set<std::string> s = {
      "-t", "--target", "--prefix", "--root", "--python", "-p", "--platform", "--only-binary",
      "--no-binary", "--trusted-host", "--cache-dir", "--config-settings", "-C", "--global-option",
      "--build-option", "--src", "--progress-bar", "--log", "--timeout", "--retries",
      "--index-strategy", "--extra", "--group", "--optional", "--python-version", "--abi",
      "--implementation", "--report", "--upgrade-strategy", "--exists-action", "--keyring-provider",
      "--python-platform", "--cert", "--client-cert", "--proxy", "--root-user-action", "--index",
      "--default-index", "--rev", "--tag", "--branch", "--bounds", "--package", "--upgrade-package",
      "-P", "--reinstall-package", "--resolution", "--prerelease", "--link-mode", "--exclude-newer",
      "--config-file", "--directory", "--project", "--script", "--no-binary-package",
      "--no-build-package", "--refresh-package", "--only-group", "--no-group"};
  return s;
}

struct Arg {
  const Word* w;
  std::string name;  // option name ("--index-url") when an option
  std::string value;
  Location vloc;
};

void add_index(Install& in, const std::string& url, const std::string& role, const Location& loc) {
  if (url.empty()) return;
  // PIP_EXTRA_INDEX_URL may carry several URLs separated by spaces.
  for (auto& u : split(url, ' ')) {
    std::string x = trim(u);
    if (!x.empty()) in.indexes.push_back({x, role, loc});
  }
}

void apply_env(Install& in, const std::string& name, const std::string& value, const Location& loc) {
  if (name == "PIP_INDEX_URL" || name == "UV_INDEX_URL" || name == "UV_DEFAULT_INDEX")
    add_index(in, value, "index-url", loc);
  else if (name == "PIP_EXTRA_INDEX_URL" || name == "UV_EXTRA_INDEX_URL" || name == "UV_INDEX")
    add_index(in, value, "extra-index-url", loc);
  else if (name == "PIP_FIND_LINKS" || name == "UV_FIND_LINKS")
    add_index(in, value, "find-links", loc);
  else if (name == "UV_TORCH_BACKEND" && !value.empty()) {
    in.torch_backend = true;
    in.torch_backend_value = value;
  } else if (name == "PIP_NO_DEPS" && truthy(value))
    in.no_deps = true;
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

void add_package(Install& in, const Word& w, bool conda) {
  if (!w.resolved) return;  // "$SPEC", "torch==${VERSION}": unknown, never guessed
  if (w.text.empty()) return;
  Requirement r;
  bool ok = conda ? parse_conda_spec(w.text, r) : parse_requirement(w.text, r);
  if (!ok) return;
  r.loc = w.loc;
  if (!r.url.empty() && r.name.empty()) {
    in.editable_or_local = true;
    return;
  }
  if (starts_with(w.text, ".") || starts_with(w.text, "/")) in.editable_or_local = true;
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
    static const std::set<std::string> valued = {
        "-r", "--requirement", "--requirements", "-c", "--constraint", "--constraints", "--override",
        "--overrides", "-i", "--index-url", "--extra-index-url", "-f", "--find-links",
        "--torch-backend", "-e", "--editable", "--default-index", "--index", "--build-constraint",
        "-b", "--build-constraints"};
    Location vloc = w.loc;
    // Short option with attached value: -rrequirements.txt
    if (!has_inline && !starts_with(t, "--") && t.size() > 2 &&
        (t[1] == 'r' || t[1] == 'c' || t[1] == 'i' || t[1] == 'f' || t[1] == 'e') &&
        t.find_first_not_of("qvUI", 1) == 1) {
      name = t.substr(0, 2);
      value = t.substr(2);
      has_inline = true;
    }
    if (valued.count(name)) {
      if (!has_inline) {
        if (i + 1 >= a.size()) break;
        value = a[++i].text;
        vloc = a[i].loc;
        // an index given through an unknown variable is still an index: keep its
        // written form so rules neither read a CUDA version nor assume the default
        if (!a[i].resolved) value = a[i].raw.empty() ? "$unresolved" : a[i].raw;
      }
      if (name == "-r" || name == "--requirement" || name == "--requirements")
        in.requirement_files.push_back({value, vloc});
      else if (name == "-c" || name == "--constraint" || name == "--constraints" ||
               name == "--override" || name == "--overrides" || name == "--build-constraint" ||
               name == "-b" || name == "--build-constraints") {
        // uv takes a file here; "--override torch==2.10.0+cu130" written inline is still a
        // pin, and the rules read it as one (the linker does not resolve spec-like values).
        in.constraint_files.push_back({value, vloc});
      } else if (name == "-i" || name == "--index-url" || name == "--default-index")
        add_index(in, value, "index-url", vloc);
      else if (name == "--extra-index-url" || name == "--index")
        add_index(in, value, "extra-index-url", vloc);
      else if (name == "-f" || name == "--find-links")
        add_index(in, value, "find-links", vloc);
      else if (name == "--torch-backend") {
        in.torch_backend = true;
        in.torch_backend_value = value;
      } else if (name == "-e" || name == "--editable") {
        in.editable_or_local = true;
        Requirement r;
        if (parse_requirement(value, r) && !r.name.empty()) {
          r.loc = vloc;
          in.packages.push_back(r);
        }
      }
      continue;
    }
    if (name == "--no-deps" || name == "--no-dependencies") in.no_deps = true;
    else if (name == "-U" || name == "--upgrade" || name == "--force-reinstall" || name == "--reinstall")
      in.upgrade = true;
    else if (!starts_with(name, "--") && name.size() > 2 && name.find_first_not_of("qvUIy", 1) == std::string::npos) {
      if (name.find('U') != std::string::npos) in.upgrade = true;  // -qU
    } else if (!has_inline && pip_value_opts().count(name) && i + 1 < a.size()) {
      ++i;
    }
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
    if (name == "-c" || name == "--channel") in.indexes.push_back({value, "conda-channel", vloc});
  }
}

std::string base_program(const Word& w) {
  std::string t = w.text;
  if (!w.resolved && t.empty()) t = w.raw;
  return basename_of(t);
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
      } else {
        break;
      }
    }
    if (i >= a.size()) continue;
    std::string prog = base_program(a[i]);
    Install in;
    size_t start = 0;
    bool conda = false;
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
      if (e.stage != c.stage && e.origin == "ARG") continue;  // ARGs do not cross stages
      if (e.loc.range.line >= c.loc.range.line && c.loc.range.valid()) continue;
      apply_env(in, e.name, e.value, e.loc);
    }
    if (!conda)
      for (auto& [n, w] : envs) apply_env(in, n, w.text, w.loc);
    if (conda) parse_conda_args(c, start, in);
    else parse_pip_args(c, start, in);
    f.installs.push_back(std::move(in));
  }
}

// ---------------------------------------------------------------------------
// runs and environments

namespace {

bool exact(const Requirement& r) { return !r.exact_version.empty() || r.hashed || !r.url.empty(); }

void fill_run(const Project& p, PkgRun& run,
              const std::map<const ParsedFile*, std::vector<const ParsedFile*>>& children,
              const std::map<const ParsedFile*, std::vector<const ParsedFile*>>& cchildren,
              std::vector<const ParsedFile*> todo) {
  const Install& in = *run.install;
  run.members.push_back({run.file, &in});
  run.indexes = in.indexes;
  run.no_deps = in.no_deps;
  run.upgrade = in.upgrade;
  run.torch_backend = in.torch_backend;
  run.torch_backend_value = in.torch_backend_value;
  for (auto& [v, l] : in.constraint_files) {
    Requirement r;
    if (v.find('/') == std::string::npos && parse_requirement(v, r) && !r.specifier.empty())
      run.inline_constraints.push_back({v, l});
  }
  for (auto& [t, ins] : p.installed_by)
    for (auto& i : ins)
      if (i.install == &in) {
        if (i.constraint) run.constraint_files.push_back(t);
        else todo.push_back(t);
      }
  std::set<const ParsedFile*> seen;
  while (!todo.empty()) {
    const ParsedFile* f = todo.back();
    todo.pop_back();
    if (!seen.insert(f).second) continue;
    if (f != run.file)
      for (const Install& fi : f->facts.installs) {
        run.members.push_back({f, &fi});
        run.indexes.insert(run.indexes.end(), fi.indexes.begin(), fi.indexes.end());
      }
    auto it = children.find(f);
    if (it != children.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
    auto ct = cchildren.find(f);
    if (ct != cchildren.end()) run.constraint_files.insert(run.constraint_files.end(), ct->second.begin(), ct->second.end());
  }
  for (const PkgMember& m : run.members)
    for (const Requirement& r : m.install->packages)
      if (exact(r)) run.exact_pins.emplace(r.name, &r);
  for (const ParsedFile* cf : run.constraint_files)
    for (const Install& ci : cf->facts.installs)
      for (const Requirement& r : ci.packages)
        if (exact(r)) run.exact_pins.emplace(r.name, &r);
}

}  // namespace

std::vector<PkgEnv> package_envs(const Project& p) {
  std::map<const ParsedFile*, std::vector<const ParsedFile*>> children, cchildren;
  for (auto& [c, parents] : p.included_by)
    for (auto* par : parents) children[par].push_back(c);
  for (auto& [c, parents] : p.constrained_by)
    for (auto* par : parents) cchildren[par].push_back(c);
  std::vector<PkgEnv> envs;
  for (const auto& up : p.files) {
    const ParsedFile& f = *up;
    if (f.facts.installs.empty()) continue;
    if (f.facts.kind == FileKind::Dockerfile) {
      int n = static_cast<int>(f.facts.images.size());
      for (int s = 0; s < n; ++s) {
        PkgEnv env;
        env.dockerfile = &f;
        env.stage = s;
        env.image = p.stage_image(f, s);
        std::set<int> chain;
        for (int k = s; k >= 0 && k < n && chain.insert(k).second;)
          k = f.facts.images[k].from_stage ? f.facts.images[k].parent_stage : -1;
        for (const Install& in : f.facts.installs) {
          if (!chain.count(in.stage)) continue;
          PkgRun run;
          run.file = &f;
          run.install = &in;
          fill_run(p, run, children, cchildren, {});
          env.runs.push_back(std::move(run));
        }
        if (!env.runs.empty()) envs.push_back(std::move(env));
      }
      continue;
    }
    if (f.facts.kind == FileKind::Requirements) {
      // Judged through whatever installs or includes it; on its own only as a root.
      if (p.installed_by.count(&f) || p.included_by.count(&f) || p.constrained_by.count(&f)) continue;
      std::string base = f.src.path().substr(f.src.path().rfind('/') + 1);
      if (starts_with(lower(base), "constraints")) continue;
    }
    PkgEnv env;
    for (const Install& in : f.facts.installs) {
      PkgRun run;
      run.file = &f;
      run.install = &in;
      std::vector<const ParsedFile*> todo;
      if (f.facts.kind == FileKind::Requirements) todo.push_back(&f);
      fill_run(p, run, children, cchildren, todo);
      env.runs.push_back(std::move(run));
    }
    envs.push_back(std::move(env));
  }
  return envs;
}

const Requirement* run_pin(const PkgRun& run, const std::string& name) {
  auto it = run.exact_pins.find(name);
  return it == run.exact_pins.end() ? nullptr : it->second;
}

bool run_pins(const Project& p, const PkgRun& run, const std::string& name) {
  if (run_pin(run, name)) return true;
  for (auto& [v, l] : run.inline_constraints) {
    Requirement r;
    if (parse_requirement(v, r) && r.name == name && exact(r)) return true;
  }
  return p.has_lockfile_pin(name);
}

bool requirement_skips_aarch64(const Requirement& r) {
  std::string m;
  for (char c : lower(r.marker))
    if (c != ' ' && c != '"' && c != '\'') m += c;
  for (const char* x : {"platform_machine==x86_64", "platform_machine==amd64", "platform_machine!=aarch64",
                        "platform_machine!=arm64", "x86_64==platform_machine", "aarch64!=platform_machine",
                        "sys_platform==win32", "sys_platform==darwin", "platform_system==windows",
                        "platform_system==darwin", "sys_platform!=linux"})
    if (m.find(x) != std::string::npos) return true;
  std::string u = lower(r.url);
  if (ends_with(u, ".whl") || u.find(".whl#") != std::string::npos) {
    bool arm = u.find("aarch64") != std::string::npos || u.find("arm64") != std::string::npos ||
               u.find("-any.whl") != std::string::npos || u.find("-none-any") != std::string::npos;
    bool other = u.find("x86_64") != std::string::npos || u.find("win_amd64") != std::string::npos ||
                 u.find("macosx") != std::string::npos || u.find("amd64") != std::string::npos;
    if (other && !arm) return true;
  }
  return false;
}

}  // namespace sc
