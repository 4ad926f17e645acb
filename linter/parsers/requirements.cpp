// SPDX-License-Identifier: Apache-2.0
// pip requirements / constraints files (and pip-tools *.in): one Install per file.
#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "core/registry.h"
#include "parsers/packaging.h"

namespace sc {
namespace {

// A logical line: text plus the file byte offset of every character.
struct Logical {
  std::string text;
  std::vector<size_t> off;
};

struct Token {
  std::string text;
  size_t b, e;  // indexes into Logical::text
};

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size()) break;
    size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    out.push_back({s.substr(b, i - b), b, i});
  }
  return out;
}

bool requirements_name(const FileInfo& f) {
  std::string n = lower(f.name);
  std::string p = lower(f.path);
  if (ends_with(n, ".txt")) {
    if (n.find("requirements") != std::string::npos || n.find("constraints") != std::string::npos ||
        starts_with(n, "overrides"))
      return true;
    // any *.txt inside a requirements/ directory
    return starts_with(p, "requirements/") || p.find("/requirements/") != std::string::npos;
  }
  // pip-compile inputs (requirements.in, dev.in); not templates: MANIFEST.in, kernel.ptx.in, config.h.in
  if (ends_with(n, ".in")) {
    std::string stem = n.substr(0, n.size() - 3);
    return !stem.empty() && stem.find('.') == std::string::npos && stem != "manifest" && stem != "makefile" &&
           stem != "doxyfile";
  }
  return false;
}

class RequirementsParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Requirements; }
  int priority() const override { return 10; }
  bool accepts(const FileInfo& f) const override { return requirements_name(f); }

  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    Install in;
    in.tool = Installer::RequirementsFile;
    in.loc = {src.path(), {1, 1, 1, 1 + utf8_cols(src.line(1), src.line(1).size())}};
    const int n = src.line_count();
    Logical cur;
    int first_line = 0;
    for (int ln = 1; ln <= n; ++ln) {
      std::string_view line = src.line(ln);
      size_t start = src.line_start(ln);
      if (cur.text.empty()) first_line = ln;
      // Continuation: a line ending in a backslash joins the next one.
      bool cont = !line.empty() && line.back() == '\\';
      std::string_view body = cont ? line.substr(0, line.size() - 1) : line;
      for (size_t k = 0; k < body.size(); ++k) {
        cur.text += body[k];
        cur.off.push_back(start + k);
      }
      if (cont && ln < n) {
        cur.text += ' ';
        cur.off.push_back(start + body.size());
        continue;
      }
      handle(src, cur, first_line, in, out, diag);
      cur = Logical{};
    }
    for (auto& ix : in.indexes) out.indexes.push_back(ix);
    in.reference_only = says_reference_only(src);
    out.installs.push_back(std::move(in));
  }

 private:
  // The comment block at the top says the file is a record, not something to install:
  // "The Dockerfile installs these; this file is for reference."
  static bool says_reference_only(const SourceFile& src) {
    static const std::array<std::string_view, 7> phrases = {
        "for reference only", "reference only", "reference-only", "this file is for reference",
        "not installed by", "do not install", "documentation only"};
    std::string header;
    for (int ln = 1; ln <= std::min(src.line_count(), 40); ++ln) {
      std::string_view t = src.line(ln);
      size_t b = t.find_first_not_of(" \t");
      if (b == std::string_view::npos) continue;
      if (t[b] != '#') break;
      header += lower(t.substr(b)) + ' ';
    }
    return std::any_of(phrases.begin(), phrases.end(), [&](std::string_view ph) { return header.find(ph) != std::string::npos; });
  }

  static Location loc_of(const SourceFile& src, const Logical& l, size_t b, size_t e) {
    if (b >= l.off.size()) return {src.path(), {}};
    size_t eb = e > b ? l.off[e - 1] + 1 : l.off[b];
    return src.loc(l.off[b], eb);
  }

  static void handle(const SourceFile& src, Logical& l, int line, Install& in, FileFacts& out,
                     ParseDiag& diag) {
    // Strip a comment: '#' at the start or after white space.
    for (size_t i = 0; i < l.text.size(); ++i) {
      if (l.text[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(l.text[i - 1])))) {
        l.text.resize(i);
        l.off.resize(i);
        break;
      }
    }
    auto toks = tokenize(l.text);
    if (toks.empty()) return;
    const Token& t0 = toks[0];
    if (t0.text[0] == '-') {
      option(src, l, line, toks, in, out, diag);
      return;
    }
    // Requirement text runs up to the first per-requirement option.
    size_t end = l.text.size();
    bool hashed = false;
    for (size_t k = 1; k < toks.size(); ++k) {
      if (starts_with(toks[k].text, "--") || toks[k].text == "-C") {
        if (end == l.text.size()) end = toks[k].b;
        if (starts_with(toks[k].text, "--hash")) hashed = true;
      }
    }
    while (end > t0.b && std::isspace(static_cast<unsigned char>(l.text[end - 1]))) --end;
    std::string spec = l.text.substr(t0.b, end - t0.b);
    Requirement r;
    if (!parse_requirement(spec, r)) {
      diag.warn(src.path(), loc_of(src, l, t0.b, end).range,
                "line " + std::to_string(line) + " is not a valid requirement: '" + spec + "'",
                "requirement-syntax");
      return;
    }
    r.hashed = hashed;
    r.loc = loc_of(src, l, t0.b, end);
    if (!r.url.empty() && r.name.empty()) return;  // a local path or nameless URL
    in.packages.push_back(std::move(r));
  }

  static void option(const SourceFile& src, const Logical& l, int line, const std::vector<Token>& toks,
                     Install& in, FileFacts& out, ParseDiag& diag) {
    std::string name = toks[0].text, value;
    size_t vb = 0, ve = 0;
    bool have_value = false;
    size_t eq = name.find('=');
    if (starts_with(name, "--") && eq != std::string::npos) {
      value = name.substr(eq + 1);
      vb = toks[0].b + eq + 1;
      ve = toks[0].e;
      name = name.substr(0, eq);
      have_value = true;
    } else if (!starts_with(name, "--") && name.size() > 2) {  // -rfile.txt
      value = name.substr(2);
      vb = toks[0].b + 2;
      ve = toks[0].e;
      name = name.substr(0, 2);
      have_value = true;
    } else if (toks.size() > 1) {
      value = toks[1].text;
      vb = toks[1].b;
      ve = toks[1].e;
      have_value = true;
    }
    std::optional<PipOption> opt = pip_option(name);
    Location nloc = loc_of(src, l, toks[0].b, toks[0].e);
    if (!opt) {
      diag.warn(src.path(), nloc.range, "line " + std::to_string(line) + ": unknown requirements-file option " + name,
                "requirement-syntax");
      return;
    }
    if (!pip_option_valued(*opt)) return apply_pip_option(in, *opt, "", nloc);
    if (!have_value) {
      if (*opt != PipOption::OtherValued)
        diag.warn(src.path(), nloc.range, "line " + std::to_string(line) + ": option " + name + " needs a value",
                  "requirement-syntax");
      return;
    }
    Location vloc = loc_of(src, l, vb, ve);
    apply_pip_option(in, *opt, value, vloc);
    if (*opt == PipOption::Requirement) out.refs.push_back({value, RefKind::Requirements, "", -1, vloc});
    if (*opt == PipOption::Constraint) out.refs.push_back({value, RefKind::Constraints, "", -1, vloc});
  }
};

}  // namespace
SPARKCHECK_PARSER(RequirementsParser);
}  // namespace sc
