// SPDX-License-Identifier: Apache-2.0
// Launch profiles written as JSON: an argument list (`"base_args": ["--tp", "2", ...]`)
// beside the program that takes it (`"server_executable": ["sglang", "serve"]`), or a list
// that starts with the program itself, becomes a Command, as the launcher that reads the
// profile runs it. A list whose program is not written beside it stays data.
#include <map>
#include <set>

#include "core/registry.h"

namespace sc {
namespace {

using Path = std::vector<std::string>;

bool item(const std::string& part) { return part.size() > 2 && part.front() == '[' && part.back() == ']'; }

// Keys whose value names the program a profile's arguments go to.
bool program_key(const std::string& k) {
  static const std::set<std::string> keys = {"server_executable", "executable", "command", "cmd", "program",
                                             "entrypoint", "launcher", "binary", "server_command"};
  return keys.count(k) > 0;
}

bool word_like(const std::string& s) { return !s.empty() && s.find_first_of(" \t\n") == std::string::npos; }

struct List {
  std::vector<const ConfigEntry*> items;
};

// The program words written under `parent` (a string, or a list of strings), else empty.
std::vector<const ConfigEntry*> program_beside(const std::map<Path, List>& lists, const FileFacts& f, const Path& parent) {
  for (const ConfigEntry& e : f.config) {
    const Path& p = e.path.parts();
    if (p.size() != parent.size() + 1 || !std::equal(parent.begin(), parent.end(), p.begin()) || !program_key(p.back()))
      continue;
    if (e.scalar && word_like(e.value)) return {&e};
    auto it = lists.find(p);
    if (it != lists.end()) return it->second.items;
  }
  return {};
}

void add_command(FileFacts& f, const std::vector<const ConfigEntry*>& program, const List& args) {
  Command c;
  c.context = CommandContext::Script;
  c.loc = args.items.front()->value_loc;
  for (const ConfigEntry* e : program) c.argv.push_back(Word{e->value, e->value, true, e->value_loc});
  for (const ConfigEntry* e : args.items) c.argv.push_back(Word{e->value, e->value, true, e->value_loc});
  f.commands.push_back(std::move(c));
}

void json_launch_lists(FileFacts& f) {
  if (f.kind != FileKind::Json || !f.commands.empty()) return;
  std::map<Path, List> lists;  // list path -> its scalar items, in order
  for (const ConfigEntry& e : f.config) {
    const Path& p = e.path.parts();
    if (p.empty() || !item(p.back()) || !e.scalar) continue;
    lists[Path(p.begin(), p.end() - 1)].items.push_back(&e);
  }
  for (const auto& [path, list] : lists) {
    size_t flags = 0;
    for (const ConfigEntry* e : list.items) flags += e->value.rfind("--", 0) == 0;
    if (flags < 2 || path.empty() || program_key(path.back())) continue;
    const std::string& first = list.items.front()->value;
    if (first[0] != '-' && word_like(first)) {  // ["vllm", "serve", "--tp", "2"]
      add_command(f, {}, list);
      continue;
    }
    std::vector<const ConfigEntry*> program = program_beside(lists, f, Path(path.begin(), path.end() - 1));
    if (!program.empty()) add_command(f, program, list);
  }
}

}  // namespace

SPARKCHECK_POST_PARSE(json_launch_lists);

}  // namespace sc
