// SPDX-License-Identifier: Apache-2.0
#include "engine/baseline.h"

#include <nlohmann/json.hpp>

#include "core/json_stream.h"
#include "core/read_file.h"

namespace sc {

namespace {

std::string where(const std::string& text, size_t byte, const std::string& file) {
  int line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; col = 1; }
    else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++col;
  }
  return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ":";
}

}  // namespace

bool parse_baseline(const std::string& text, const std::string& file, Baseline& out, std::string& error) {
  const std::string shape =
      " (a baseline is the JSON object written by `sparkcheck lint --write-baseline FILE`: "
      "{\"version\": 1, \"findings\": [{\"fingerprint\": ...}, ...]})";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // The library's message ends in "; last read: '<the bytes>'": the file's own text, never
    // shown (a discovered or mistyped path may name any readable file). Where and what only.
    std::string msg = e.what();
    size_t p = msg.find("syntax error");
    msg = p == std::string::npos ? std::string("syntax error") : msg.substr(p);
    if (size_t lr = msg.find("; last read"); lr != std::string::npos) msg.erase(lr);
    if (msg.size() > 200) msg = msg.substr(0, 200) + "...";
    size_t at = e.byte > 0 ? e.byte - 1 : 0;
    error = where(text, at, file) + " not a valid baseline: " + msg + " (byte offset " + std::to_string(at) + ")" +
            shape;
    return false;
  } catch (const nlohmann::json::exception& e) {  // a number out of range (1e400), ...
    error = file + ": not a valid baseline: " + std::string(e.id == 406 ? "a number out of range" : "not valid JSON") +
            shape;
    return false;
  }
  if (!j.is_object() || !j.contains("findings") || !j["findings"].is_array()) {
    error = file + ": not a valid baseline: expected an object with a \"findings\" list" + shape;
    return false;
  }
  if (j.contains("version") && (!j["version"].is_number_integer() || j["version"].get<int>() != 1)) {
    error = file + ": unsupported baseline version" +
            (j["version"].is_number_integer() ? " " + j["version"].dump() : std::string(" (not a whole number)")) +
            "; this sparkcheck reads version 1";
    return false;
  }
  size_t i = 0;
  for (const auto& f : j["findings"]) {
    if (!f.is_object() || !f.contains("fingerprint") || !f["fingerprint"].is_string() ||
        f["fingerprint"].get<std::string>().empty()) {
      error = file + ": not a valid baseline: findings[" + std::to_string(i) + "] has no \"fingerprint\" string" + shape;
      return false;
    }
    out.fingerprints.insert(f["fingerprint"].get<std::string>());
    ++i;
  }
  return true;
}

bool load_baseline(const std::string& file, Baseline& out, std::string& error) {
  std::string text, why;
  if (!read_regular_file(file, text, why)) {
    error = file + ": cannot read baseline file: " + why +
            " (create one with `sparkcheck lint --write-baseline " + file + "`)";
    return false;
  }
  return parse_baseline(text, file, out, error);
}

void write_baseline(const LintResult& r, std::ostream& out, const std::string& base_dir) {
  std::vector<std::string> keys = fingerprints_relative_to(r, base_dir);
  JsonStream w(out);  // one finding at a time
  w.begin_object();
  w.member("version", 1);
  w.member("tool", "sparkcheck");
  w.key("findings");
  w.begin_array();
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const Finding& f = r.findings[i];
    if (!f.suppressions.empty()) continue;
    w.value({{"fingerprint", keys[i]},
             {"rule", f.rule},
             {"path", base_dir.empty() ? f.loc.path.str() : path_relative_to(r, f.loc.path, base_dir)},
             {"line", f.loc.range.line},
             {"message", f.message}});
  }
  w.end();
  w.end();
  out << "\n";
}

}  // namespace sc
