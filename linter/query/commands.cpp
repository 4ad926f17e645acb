// SPDX-License-Identifier: Apache-2.0
#include "query/commands.h"
#include "core/path_names.h"

#include <algorithm>

#include "knowledge/knowledge.h"

namespace sc::query {

std::optional<long> int_text(std::string_view text, const Location& at, Unreadable* bad) {
  IntLiteral lit = read_int(text);
  if (lit.unreadable && bad) bad->add(at);
  return lit.value;
}

std::optional<long> int_word(const Word& w, Unreadable* bad) {
  return w.resolved ? int_text(w.text, w.loc, bad) : std::nullopt;
}

namespace {

// The value of `name` in argv word i: "--tp=2" / "-N2" inline, "--tp 2" the next word.
std::optional<Word> value_at(const Command& c, size_t i, std::string_view name) {
  const std::string& a = c.argv[i].text;
  if (name.empty() || a.size() < name.size() || a.compare(0, name.size(), name) != 0) return std::nullopt;
  if (a.size() == name.size()) {
    if (i + 1 < c.argv.size()) return c.argv[i + 1];
    return std::nullopt;
  }
  bool glued = name.size() == 2 && name[0] == '-' && name[1] != '-';
  if (a[name.size()] != '=' && !glued) return std::nullopt;
  Word w = c.argv[i];
  w.text = a.substr(name.size() + (a[name.size()] == '=' ? 1 : 0));
  return w;
}

}  // namespace

std::optional<Word> flag_word(const Command& c, const std::vector<std::string>& names) {
  std::optional<Word> found;  // the last occurrence wins, as with argparse
  for (size_t i = 1; i < c.argv.size(); ++i)
    for (const auto& n : names)
      if (auto w = value_at(c, i, n)) {
        found = std::move(w);
        break;
      }
  return found;
}

std::optional<IntAt> int_flag(const Command& c, const std::vector<std::string>& names, Unreadable* bad) {
  auto w = flag_word(c, names);
  if (!w) return std::nullopt;
  auto v = int_word(*w, bad);
  if (!v) return std::nullopt;
  return IntAt{*v, w->loc};
}

bool may_have_flag(const Command& c, const std::vector<std::string>& names) {
  for (size_t i = 1; i < c.argv.size(); ++i)
    for (const auto& n : names)
      if (!n.empty() && starts_with(c.argv[i].text, n)) return true;
  return false;
}

bool has_any_flag(const Command& c, const std::vector<std::string>& names) {
  for (size_t i = 1; i < c.argv.size(); ++i)
    for (const auto& n : names) {
      const std::string& a = c.argv[i].text;
      if (a == n || (a.size() > n.size() && a.compare(0, n.size(), n) == 0 && a[n.size()] == '=')) return true;
    }
  return false;
}

namespace {

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool subcommand_fits(const Command& c, int prog, const knowledge::Entry& e) {
  const auto& subs = e.list("subcommands");
  if (subs.empty()) return true;
  size_t next = static_cast<size_t>(prog) + 1;
  if (next >= c.argv.size()) return false;
  const std::string& word = c.argv[next].text;
  if (contains(e.list("not_subcommands"), word)) return false;
  return contains(subs, "*") || contains(subs, word);
}

// Does `base` hold `part` as a whole piece between `-`, `_` and `.` ("dsv4-vllm-entrypoint")?
bool named_part(std::string_view base, std::string_view part) {
  for (size_t at = base.find(part); at != std::string_view::npos; at = base.find(part, at + 1)) {
    auto edge = [](char ch) { return ch == '-' || ch == '_' || ch == '.'; };
    bool left = at == 0 || edge(base[at - 1]);
    bool right = at + part.size() == base.size() || edge(base[at + part.size()]);
    if (left && right) return true;
  }
  return false;
}

// A wrapper named for the launcher whose next word is one of its named subcommands
// (`exec /usr/local/bin/dsv4-vllm-entrypoint serve MODEL --tensor-parallel-size 2`).
bool wrapper_runs(const Command& c, const knowledge::Entry& e) {
  const auto& subs = e.list("subcommands");
  if (subs.empty() || contains(subs, "*")) return false;
  for (size_t i = 0; i + 1 < c.argv.size(); ++i) {
    std::string base = base_name(c.argv[i].text);
    if (!contains(subs, c.argv[i + 1].text) || contains(e.list("programs"), base)) continue;
    for (const std::string& p : e.list("programs"))
      if (named_part(base, p)) return true;
  }
  return false;
}

}  // namespace

bool runs(const Command& c, std::string_view name) {
  const knowledge::Entry* e = knowledge::table("launchers").find(name);
  if (!e) return false;
  if (!e->list("modules").empty() && find_module(c, e->list("modules")) >= 0) return true;
  // every word named for the program, not only the first (`-v cache:/root/.cache/vllm IMAGE vllm serve`)
  const auto& progs = e->list("programs");
  for (int prog = progs.empty() ? -1 : find_program(c, progs); prog >= 0; prog = find_program(c, progs, static_cast<size_t>(prog) + 1))
    if (subcommand_fits(c, prog, *e)) return true;
  return wrapper_runs(c, *e);
}

std::string launcher_of(const Command& c) {
  for (const auto& e : knowledge::table("launchers").entries)
    if (runs(c, e.get("name"))) return e.get("name");
  return "";
}

namespace {

// The image whose stage `c` runs in, or null.
const Image* stage_image(const FileFacts& f, const Command& c) {
  if (c.stage < 0) return nullptr;
  for (const Image& im : f.images)
    if (im.stage == c.stage && !im.from_stage) return &im;
  return nullptr;
}

}  // namespace

std::optional<Command> entrypoint_launch(const FileFacts& f, const Command& c) {
  if (c.argv.empty() || (c.context != CommandContext::Container && c.context != CommandContext::Compose))
    return std::nullopt;
  const Image* im = stage_image(f, c);
  const knowledge::Entry* e = im ? knowledge::table("image-entrypoints").match(lower(im->ref)) : nullptr;
  if (!e || contains(e->list("programs_of_their_own"), base_name(c.argv[0].text)) || !launcher_of(c).empty())
    return std::nullopt;
  Command run = c;
  std::vector<Word> words;
  for (const std::string& t : e->list("argv")) words.push_back({t, "", true, im->loc});
  run.argv.insert(run.argv.begin(), words.begin(), words.end());
  return run;
}

std::vector<std::pair<std::string, const Word*>> overrides(const Command& c, std::string_view key) {
  std::vector<std::pair<std::string, const Word*>> out;
  for (const auto& w : c.argv) {
    if (!w.resolved || starts_with(w.text, "-")) continue;
    size_t eq = w.text.find('=');
    if (eq == std::string::npos) continue;
    std::string_view k = std::string_view(w.text).substr(0, eq);
    std::string_view bare = starts_with(k, "+") ? k.substr(1) : k;
    bool dotted = bare.size() > key.size() && ends_with(bare, key) && bare[bare.size() - key.size() - 1] == '.';
    if (bare == key || dotted) out.emplace_back(std::string(k), &w);
  }
  return out;
}

bool mentions(const Command& c, const std::vector<std::string>& words) {
  for (const auto& w : c.argv)
    if (w.resolved)
      for (const auto& x : words)
        if (w.text.find(x) != std::string::npos) return true;
  return false;
}

}  // namespace sc::query
