// SPDX-License-Identifier: Apache-2.0
// G7 evidence, words: architecture lists (12.1 plain or arch-specific) and NVFP4 words.
#include "rules/G7-nvfp4-without-sm121a/evidence.h"
#include "rules/G7-nvfp4-without-sm121a/evidence_parts.h"

#include <algorithm>
#include <cctype>

#include "core/path_names.h"
#include "core/registry.h"
#include "knowledge/cuda.h"
#include "knowledge/knowledge.h"
#include "query/commands.h"
#include "query/packages.h"
#include "query/project.h"

namespace sc::g7 {

using knowledge::Entry;
using knowledge::table;

// ---- architecture lists ------------------------------------------------------------

// The arch target of a lower-case token with its affixes stripped ("sm_121a" -> "121a",
// "12.1+PTX" -> "12.1"); `prefix` gets the length stripped in front.
static const Entry* token_target(std::string t, size_t& prefix) {
  prefix = 0;
  for (const Entry& e : table("arch-token-affixes").entries) {
    const std::string& a = e.get("name");
    if (e.get("side") == "prefix" && starts_with(t, a)) t = t.substr(a.size()), prefix += a.size();
    if (e.get("side") == "suffix" && ends_with(t, a)) t = t.substr(0, t.size() - a.size());
  }
  return table("arch-targets").find(t);
}

static Arch classify_token(const std::string& t, bool named_archs) {
  size_t prefix = 0;
  const Entry* target = token_target(t, prefix);
  if (!target || (!target->get("named").empty() && !named_archs)) return Arch::None;
  return target->get("kind") == "specific" ? Arch::Specific : Arch::Plain;
}

// Calls `fn(offset, token)` for each token of an architecture list.
template <class Fn>
static void for_tokens(std::string_view text, Fn fn) {
  std::string tok;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-';
    if (!word) {
      if (!tok.empty()) fn(start, lower(tok));
      tok.clear();
    } else if (c != '-' || !tok.empty()) {  // "-gencode" / "-arch": '-' only inside a token
      if (tok.empty()) start = i;
      tok += c;
    }
  }
}

Arch classify(std::string_view text, bool named_archs) {
  bool plain = false, specific = false;
  for_tokens(text, [&](size_t, const std::string& tok) {
    Arch a = classify_token(tok, named_archs);
    plain = plain || a == Arch::Plain;
    specific = specific || a == Arch::Specific;
  });
  return specific ? Arch::Specific : plain ? Arch::Plain : Arch::None;
}

std::vector<std::pair<size_t, size_t>> plain_numbers(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spots;
  bool named = false;
  for_tokens(text, [&](size_t at, const std::string& tok) {
    size_t prefix = 0;
    const Entry* target = token_target(tok, prefix);
    if (!target || target->get("kind") != "plain") return;
    if (!target->get("named").empty()) named = true;
    else spots.push_back({at + prefix, target->get("name").size()});
  });
  if (named) spots.clear();
  return spots;
}

// ---- NVFP4 words ---------------------------------------------------------------------

// The value a word carries, lowercased: "--quantization=modelopt_fp4" -> "modelopt_fp4";
// nullopt for prose (spaces), flags without a value and oversized words.
static std::optional<std::string> word_value(std::string_view word) {
  if (word.empty() || word.size() > 300) return std::nullopt;
  if (std::any_of(word.begin(), word.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  std::string l = lower(word);
  if (starts_with(l, "-")) {
    size_t eq = l.find('=');
    if (eq == std::string::npos) return std::nullopt;
    l = l.substr(eq + 1);
  }
  while (!l.empty() && l.back() == '/') l.pop_back();
  return l;
}

// The extension of a file name, "" when it has none ("Llama-3.1-8B-NVFP4" has a dot but no extension).
static std::string extension(const std::string& last) {
  size_t dot = last.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  std::string ext = last.substr(dot + 1);
  bool alnum = std::all_of(ext.begin(), ext.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  return !ext.empty() && ext.size() <= 12 && std::isalpha(static_cast<unsigned char>(ext[0])) && alnum ? ext : "";
}

// A value containing "nvfp4": a quantization value, a hub id, a kernel source or weights
// file, a local checkpoint directory; not a URL or a document.
static bool nvfp4_path(const std::string& l) {
  if (l.find("://") != std::string::npos) return false;
  size_t slash = l.rfind('/');
  std::string last = l.substr(slash == std::string::npos ? 0 : slash + 1);
  std::string ext = extension(last);
  if (!ext.empty()) return knowledge::in("nvfp4-file-extensions", ext);
  size_t slashes = std::count(l.begin(), l.end(), '/');
  bool local = starts_with(l, "./") || starts_with(l, "../") || starts_with(l, "/") || starts_with(l, "~");
  if (slashes == 0 || (slashes == 1 && !local)) return true;
  return ends_with(last, "nvfp4");
}

// `ENABLE_NVFP4_SM100=0`, `USE_NVFP4=false`: a switch that turns an NVFP4 path off.
static bool switched_off(std::string_view word) {
  size_t eq = word.find('=');
  if (eq == std::string_view::npos) return false;
  static const std::set<std::string> off = {"0", "false", "off", "no", "none", "disabled"};
  return off.count(lower(std::string(word.substr(eq + 1)))) > 0;
}

bool nvfp4_word(std::string_view word) {
  if (switched_off(word)) return false;
  auto l = word_value(word);
  if (!l) return false;
  if (knowledge::in("nvfp4-quant-values", *l)) return true;
  if (l->find("nvfp4") == std::string::npos) return table("nvfp4-model-ids").match(*l) != nullptr;
  return nvfp4_path(*l);
}

bool naming_key(const std::string& k) {
  if (knowledge::in("naming-config-keys", k)) return true;
  for (const Entry* e : table("naming-config-key-patterns").matches(k))
    if (e->get("unless").empty() || k.find(e->get("unless")) == std::string::npos) return true;
  return false;
}

}  // namespace sc::g7
