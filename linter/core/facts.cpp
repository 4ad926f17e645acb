// SPDX-License-Identifier: Apache-2.0
#include "core/facts.h"

#include <array>
#include <mutex>
#include <unordered_set>

namespace sc {

const KeyPath::Parts KeyPath::kEmpty;

namespace {
struct PartsHash {
  size_t operator()(const KeyPath::Parts& parts) const {
    size_t h = parts.size();
    for (const std::string& p : parts) h = h * 1000003u ^ std::hash<std::string>{}(p);
    return h;
  }
};
}  // namespace

const KeyPath::Parts* KeyPath::intern(const Parts& parts) {
  if (parts.empty()) return &kEmpty;
  // Never destroyed: paths stay valid in static destructors. Node-based: entries never move.
  static auto* pool = new std::unordered_set<Parts, PartsHash>();
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  return &*pool->insert(parts).first;
}

std::string ConfigEntry::dotted() const {
  std::string s;
  for (auto& p : path) {
    if (!s.empty() && !(p.size() && p[0] == '[')) s += '.';
    s += p;
  }
  return s;
}

// ---------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------
namespace {

// Does argv word `a` carry flag `name`? Sets `inline_value` for --flag=V / -NV.
bool match_flag(const std::string& a, std::string_view name, std::string& inline_value, bool& has_inline) {
  has_inline = false;
  if (name.empty() || a.size() < name.size()) return false;
  if (a == name) return true;
  if (a.compare(0, name.size(), name) != 0) return false;
  if (a[name.size()] == '=') {
    inline_value = a.substr(name.size() + 1);
    has_inline = true;
    return true;
  }
  // -N2: a single-letter short flag glued to its value
  if (name.size() == 2 && name[0] == '-' && name[1] != '-') {
    inline_value = a.substr(2);
    has_inline = true;
    return true;
  }
  return false;
}

}  // namespace

std::optional<Word> flag_value(const Command& c, std::initializer_list<std::string_view> names) {
  std::optional<Word> found;  // the last occurrence wins, as with argparse
  for (size_t i = 1; i < c.argv.size(); ++i) {
    for (std::string_view name : names) {
      std::string v;
      bool inl = false;
      if (!match_flag(c.argv[i].text, name, v, inl)) continue;
      if (inl) {
        Word w = c.argv[i];
        w.text = v;
        found = w;
      } else if (i + 1 < c.argv.size()) {
        found = c.argv[i + 1];
      }
      break;
    }
  }
  return found;
}

bool has_flag(const Command& c, std::initializer_list<std::string_view> names) {
  for (size_t i = 1; i < c.argv.size(); ++i)
    for (std::string_view name : names) {
      const std::string& a = c.argv[i].text;
      if (a == name || (a.size() > name.size() && a.compare(0, name.size(), name) == 0 &&
                        a[name.size()] == '='))
        return true;
    }
  return false;
}

bool makes_venv(const Command& c) {
  if (c.argv.empty()) return false;
  const std::string& p = c.argv[0].text;
  std::string_view prog = std::string_view(p).substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1);
  if (prog == "virtualenv" || (prog == "uv" && c.argv.size() > 1 && c.argv[1].text == "venv")) return true;
  for (size_t i = 1; i + 1 < c.argv.size(); ++i)
    if (c.argv[i].text == "-m" && (c.argv[i + 1].text == "venv" || c.argv[i + 1].text == "virtualenv")) return true;
  return false;
}

static_assert(sizeof(FileFacts) == 216, "a new FileFacts field: check it in facts_empty()");

bool facts_empty(const FileFacts& f) {
  const PythonFacts& py = f.python;
  return !f.lockfile && f.installs.empty() && f.indexes.empty() && f.images.empty() && f.env.empty() &&
         f.refs.empty() && f.commands.empty() && f.config.empty() && py.imports.empty() && py.calls.empty() &&
         py.assigns.empty() && py.strings.empty() && f.sbatch.empty() && f.arg_lists.empty() && f.code_lines.empty() && f.sections.empty() && f.front_matter.empty() &&
         f.ci_jobs.empty() && f.expansions.empty() && f.builds.empty() && f.services.empty() && f.locked.empty();
}

const FileFacts& FactsBox::empty_of(FileKind k) {
  static const auto empties = [] {
    std::array<FileFacts, static_cast<size_t>(FileKind::CMake) + 1> a;
    for (size_t i = 0; i < a.size(); ++i) a[i].kind = static_cast<FileKind>(i);
    return a;
  }();
  return empties[static_cast<size_t>(k)];
}

FactsBox& FactsBox::operator=(FileFacts f) {
  kind_ = f.kind;
  if (facts_empty(f)) p_.reset();
  else p_ = std::make_unique<FileFacts>(std::move(f));
  return *this;
}

FileFacts& FactsBox::edit() {
  if (!p_) {
    p_ = std::make_unique<FileFacts>();
    p_->kind = kind_;
  }
  return *p_;
}

void FactsBox::compact() {
  if (!p_) return;
  kind_ = p_->kind;
  if (facts_empty(*p_)) p_.reset();
}

}  // namespace sc
