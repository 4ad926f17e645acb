// SPDX-License-Identifier: Apache-2.0
// Parser, rule and check registries. Adding a file kind or a rule is one new .cpp
// file that ends with SPARKCHECK_PARSER(...) or SPARKCHECK_RULE(...). What a rule
// id is checked by ("lint", "probe") is read from here, never from its doc.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "core/facts.h"

namespace sc {

class Project;

// What the classifier knows about a file before parsing.
struct FileInfo {
  std::string path;       // display path
  std::string name;       // base name
  std::string_view head;  // first bytes of the content (shebang, sniffing)
};

// Collects parse problems; the engine turns them into notifications.
struct ParseDiag {
  std::vector<Notification> notes;
  // Set by the engine's prefilter for files that embed Python (notebook code cells): whether
  // the embedded Python, all of it, can yield a fact any rule reads. Null: parse it all.
  std::function<bool(std::string_view)> python_wanted;
  // Set by the prefilter for a Python file: the lines (1-based, ascending) whose statements can
  // yield a fact a rule reads; the parser may parse only those statements. Null: parse it all.
  std::function<std::vector<int>(std::string_view)> python_lines;
  void error(const std::string& path, Range r, std::string msg, std::string id = "parse-error") {
    notes.push_back({Level::Error, path, r, std::move(msg), std::move(id)});
  }
  void warn(const std::string& path, Range r, std::string msg, std::string id = "parse-warning") {
    notes.push_back({Level::Warning, path, r, std::move(msg), std::move(id)});
  }
};

class Parser {
 public:
  virtual ~Parser() = default;
  virtual FileKind kind() const = 0;
  // Higher wins when several parsers accept a file (pyproject.toml > *.toml).
  virtual int priority() const { return 0; }
  virtual bool accepts(const FileInfo& f) const = 0;
  virtual void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const = 0;
};

// Emits findings; the engine fills fingerprints and applies suppressions.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void report(Finding f) = 0;
  // A value the rule could not read (a number out of range...): that one finding is lost,
  // the rule's others stand, and the user sees this note naming the file and line.
  virtual void note(Notification n) = 0;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual std::string_view id() const = 0;  // "G1"
  virtual void check(const Project& p, Reporter& out) const = 0;
};

// A step run on every file's facts after its parser (e.g. install commands -> Install facts).
using PostParsePass = void (*)(FileFacts&);

// Whether a rule reads a file's text itself (not only its facts): such files keep their text
// for the run; every other file's text is dropped once its facts are taken.
using TextNeed = bool (*)(FileKind, std::string_view text);

std::vector<const Parser*>& parsers();
std::vector<PostParsePass>& post_parse_passes();
std::vector<TextNeed>& text_needs();
std::vector<const Rule*>& rules();
const Parser* parser_for(const FileInfo& f);

// One way a rule id is checked: "lint" (a Rule, or a meta rule of the engine) or
// "probe" (a runtime check of linter/probe).
struct CheckEntry {
  std::string id;    // "G1", "unused-suppression"
  std::string kind;  // "lint" | "probe"
};
std::vector<CheckEntry>& registered_checks();
// The kinds registered for `id`, lint before probe ({} when none).
std::vector<std::string> checks_of(std::string_view id);
// Every registered id, in rule order.
std::vector<std::string> registered_ids();
// Rule order: G-numbers by number, then other ids by name.
bool rule_id_less(std::string_view a, std::string_view b);

template <class T> struct ParserRegistrar {
  ParserRegistrar() { static T inst; parsers().push_back(&inst); }
};
struct PostParseRegistrar {
  explicit PostParseRegistrar(PostParsePass p) { post_parse_passes().push_back(p); }
};
struct TextNeedRegistrar {
  explicit TextNeedRegistrar(TextNeed n) { text_needs().push_back(n); }
};
template <class T> struct RuleRegistrar {
  RuleRegistrar() {
    static T inst;
    rules().push_back(&inst);
    registered_checks().push_back({std::string(inst.id()), "lint"});
  }
};
struct CheckRegistrar {
  CheckRegistrar(const char* id, const char* kind) { registered_checks().push_back({id, kind}); }
};

}  // namespace sc

#define SC_CAT2(a, b) a##b
#define SC_CAT(a, b) SC_CAT2(a, b)
#define SPARKCHECK_PARSER(cls) static ::sc::ParserRegistrar<cls> SC_CAT(sc_parser_reg_, __LINE__)
#define SPARKCHECK_POST_PARSE(fn) static ::sc::PostParseRegistrar SC_CAT(sc_pass_reg_, __LINE__)(fn)
#define SPARKCHECK_KEEPS_TEXT(fn) static ::sc::TextNeedRegistrar SC_CAT(sc_text_reg_, __LINE__)(fn)
#define SPARKCHECK_RULE(cls) static ::sc::RuleRegistrar<cls> SC_CAT(sc_rule_reg_, __LINE__)
// A check that is not a Rule class: the engine's meta rules, the probe's checks.
#define SPARKCHECK_CHECK(id, kind) static ::sc::CheckRegistrar SC_CAT(sc_check_reg_, __LINE__)(id, kind)
