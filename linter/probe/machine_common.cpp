// SPDX-License-Identifier: Apache-2.0
// Pieces both machines share: reading files below a root and scanning /proc.
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "probe/machine.h"

namespace sc::probe {

namespace {

std::string join_root(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  std::string r = root;
  while (!r.empty() && r.back() == '/') r.pop_back();
  return r + (path.empty() || path[0] != '/' ? "/" : "") + path;
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\0', start);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

std::optional<std::string> read_below(const std::string& root_fs, const std::string& path) {
  std::ifstream f(join_root(root_fs, path), std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return std::nullopt;
  return ss.str();
}

std::vector<std::string> list_below(const std::string& root_fs, const std::string& path) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(join_root(root_fs, path), ec)) {
    out.push_back(e.path().filename().string());
    if (out.size() >= 256) break;  // a bound on what a report carries
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<ProcInfo> scan_proc(const std::string& root_fs, int skip_pid) {
  std::vector<ProcInfo> out;
  std::string dir = join_root(root_fs, "/proc");
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (!end || *end != '\0' || pid <= 0 || pid == skip_pid) continue;
    auto cmd = read_below(root_fs, "/proc/" + std::string(e->d_name) + "/cmdline");
    if (!cmd || cmd->empty()) continue;  // kernel threads and vanished processes
    ProcInfo p;
    p.pid = static_cast<int>(pid);
    p.argv = split_nul(*cmd);
    if (auto env = read_below(root_fs, "/proc/" + std::string(e->d_name) + "/environ")) {
      std::map<std::string, std::string> m;
      for (auto& kv : split_nul(*env)) {
        size_t eq = kv.find('=');
        if (eq != std::string::npos) m[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
      p.env = std::move(m);
    }
    out.push_back(std::move(p));
  }
  closedir(d);
  std::sort(out.begin(), out.end(), [](const ProcInfo& a, const ProcInfo& b) { return a.pid < b.pid; });
  return out;
}

std::string default_python(const std::map<std::string, std::string>& env) {
  auto it = env.find("VIRTUAL_ENV");
  if (it != env.end() && !it->second.empty()) return it->second + "/bin/python";
  return "python3";
}

bool parse_python_output(const std::string& out, PythonReport& rep) {
  const std::string tag = "SPARKCHECK-JSON ";
  size_t at = out.rfind(tag);
  if (at == std::string::npos) return false;
  size_t end = out.find('\n', at);
  try {
    rep.data = nlohmann::json::parse(out.substr(at + tag.size(), end == std::string::npos ? end : end - at - tag.size()));
    rep.ok = true;
  } catch (const std::exception& e) {
    rep.error = std::string("unreadable report: ") + e.what();
  }
  return true;
}

KernelArches parse_cuobjdump(const std::string& out, const std::string& err, int exit_code) {
  KernelArches k;
  static const std::regex arch_re(R"(sm_(\d+[af]?)\.(cubin|ptx))");
  std::set<std::string> sass, ptx;
  for (std::sregex_iterator it(out.begin(), out.end(), arch_re), end; it != end; ++it) {
    std::string a = "sm_" + (*it)[1].str();
    ((*it)[2] == "cubin" ? sass : ptx).insert(a);
  }
  if (exit_code != 0 && sass.empty() && ptx.empty() && err.find("does not contain device code") == std::string::npos) {
    k.error = "cuobjdump failed: " + err.substr(0, 200);
    return k;
  }
  k.ok = true;
  k.sass.assign(sass.begin(), sass.end());
  k.ptx.assign(ptx.begin(), ptx.end());
  return k;
}

void ld_cache_runtimes(const std::string& s, std::map<std::string, std::string>& out) {
  static const std::regex name_re(R"(libcudart\.so\.(\d+)$)");
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\0', start);
    if (end == std::string::npos) end = s.size();
    if (end - start > 4 && s[start] == '/') {
      std::string p = s.substr(start, end - start);
      std::smatch m;
      std::string base = std::filesystem::path(p).filename().string();
      if (std::regex_search(base, m, name_re) && !out.count(base)) out[base] = p + " (ld.so.cache)";
    }
    start = end + 1;
  }
}

}  // namespace sc::probe
