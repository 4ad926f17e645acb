// SPDX-License-Identifier: Apache-2.0
// Core: source ranges, UTF-8, globbing, config trees, rule docs, fingerprints.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <thread>
#include <yaml-cpp/yaml.h>

#include "engine/engine.h"
#include "core/registry.h"
#include "core/rule_docs.h"
#include "core/nesting.h"
#include "core/walk.h"
#include "parsers/config.h"

using namespace sc;

TEST_CASE("ranges count code points and map views back to the real file") {
  SourceFile f("a.txt", "ab\nxé z\n");
  Range r = f.range(3, 7);  // "xé z" minus nothing: bytes 3..7 = "xé " (é is 2 bytes)
  CHECK(r.line == 2);
  CHECK(r.col == 1);
  CHECK(r.end_col == 4);
  CHECK(f.line(2) == "xé z");

  SourceFile real("Dockerfile", "FROM x\nRUN pip install \\\n    torch\n");
  SourceFile view("Dockerfile", "pip install \\\n    torch\n");
  view.set_line_map({{2, 4, real.line(2)}, {3, 0, real.line(3)}});
  Range v = view.range(18, 23);  // "torch" on view line 2
  CHECK(v.line == 3);
  CHECK(v.col == 5);
  CHECK(v.end_col == 10);
  Range w = view.range(0, 3);  // "pip" on view line 1 -> real line 2 col 5
  CHECK(w.line == 2);
  CHECK(w.col == 5);
}

TEST_CASE("interned paths: one string per path, from any thread, ordered as strings") {
  std::string built = std::string("dir/") + "a.py";
  PathRef a("dir/a.py"), b(built), c("dir/b.py"), none;
  CHECK(a == b);
  CHECK(&a.str() == &b.str());
  CHECK(a != c);
  CHECK(a < c);
  CHECK(c > std::string("dir/a.py"));
  CHECK(a == std::string_view("dir/a.py"));
  CHECK(none.empty());
  CHECK(none == PathRef(""));
  CHECK(a + "x" == "dir/a.pyx");
  CHECK(std::hash<PathRef>{}(a) == std::hash<std::string_view>{}("dir/a.py"));
  std::vector<const std::string*> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&seen, t] {
      for (int i = 0; i < 500; ++i) PathRef("thread/" + std::to_string(i));
      seen[t] = &PathRef("thread/7").str();
    });
  for (auto& th : threads) th.join();
  for (const std::string* s : seen) CHECK(s == &PathRef("thread/7").str());
  // The pool's table grows many times over: every path keeps its one string.
  std::vector<const std::string*> first;
  for (int i = 0; i < 20000; ++i) first.push_back(&PathRef("grow/" + std::to_string(i)).str());
  int same = 0;
  for (int i = 0; i < 20000; ++i)
    same += &PathRef("grow/" + std::to_string(i)).str() == first[static_cast<size_t>(i)] &&
            *first[static_cast<size_t>(i)] == "grow/" + std::to_string(i);
  CHECK(same == 20000);
}

TEST_CASE("facts box: empty facts are shared per kind, written facts are the file's own") {
  sc::FileFacts empty;
  empty.kind = sc::FileKind::Python;
  sc::FactsBox a(empty);
  CHECK_FALSE(a.stored());
  CHECK(a->kind == sc::FileKind::Python);
  sc::FactsBox b(empty);
  CHECK(&*a == &*b);  // one shared object, read without allocating
  sc::FileFacts lock;
  lock.kind = sc::FileKind::Lockfile;
  lock.lockfile = true;  // a flag alone is a fact
  CHECK(sc::FactsBox(lock).stored());
  b.edit().refs.push_back({});
  CHECK(b.stored());
  CHECK(b->kind == sc::FileKind::Python);
  CHECK(a->refs.empty());  // the shared empty one stays empty
  sc::FactsBox c = b;  // a copy owns its facts
  c.edit().refs.clear();
  CHECK(b->refs.size() == 1);
  c.compact();
  CHECK_FALSE(c.stored());
  CHECK(c->kind == sc::FileKind::Python);
  b.compact();
  CHECK(b.stored());
}

TEST_CASE("fact lists: an empty list holds no vector; writes make one, copies are deep") {
  sc::FactList<int> a;
  CHECK(a.empty());
  CHECK(a.size() == 0);
  CHECK(a.begin() == a.end());
  int seen = 0;
  for (int& x : a) seen += x;  // iterating an unmade list for writing touches nothing
  CHECK(seen == 0);
  CHECK(&a.all() == &sc::FactList<int>().all());  // one shared empty vector
  a.push_back(1);
  a.emplace_back(2);
  CHECK(a.size() == 2);
  CHECK(a[1] == 2);
  CHECK(a.back() == 2);
  sc::FactList<int> b = a;
  b.edit().push_back(3);
  CHECK(a.size() == 2);
  CHECK(b.size() == 3);
  CHECK(static_cast<const std::vector<int>&>(b) == std::vector<int>{1, 2, 3});
  b.edit().clear();
  b.shrink_to_fit();  // empty again: the vector goes
  CHECK(&b.all() == &sc::FactList<int>().all());
  a = std::vector<int>{};
  CHECK(&a.all() == &sc::FactList<int>().all());
  CHECK_THROWS(a.at(0));
}

TEST_CASE("config key paths: equal paths share one interned list") {
  sc::KeyPath a = sc::KeyPath::Parts{"model", "tp_size"};
  sc::KeyPath b = sc::KeyPath::Parts{"model", "tp_size"};
  sc::KeyPath c = sc::KeyPath::Parts{"model", "tp"};
  CHECK(&a.parts() == &b.parts());
  CHECK(a == b);
  CHECK_FALSE(a == c);
  CHECK(a.size() == 2);
  CHECK(a[0] == "model");
  CHECK(a.back() == "tp_size");
  CHECK(std::vector<std::string>(a.begin(), a.end()) == std::vector<std::string>{"model", "tp_size"});
  sc::KeyPath none;
  CHECK(none.empty());
  CHECK(sc::KeyPath(sc::KeyPath::Parts{}) == none);
  // {"a.b"} and {"a", "b"} are different paths
  CHECK_FALSE(sc::KeyPath(sc::KeyPath::Parts{"a.b"}) == sc::KeyPath(sc::KeyPath::Parts{"a", "b"}));
}

TEST_CASE("UTF-8 validation") {
  CHECK(valid_utf8("plain"));
  CHECK(valid_utf8("é€😀"));
  CHECK_FALSE(valid_utf8("\xff"));
  CHECK_FALSE(valid_utf8("\xc0\xaf"));      // overlong
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));  // surrogate
  CHECK_FALSE(valid_utf8("\xe2\x82"));      // truncated
}

TEST_CASE("display paths: relative to the root, odd roots and paths built the long way") {
  CHECK(display_path("/r/a/b.py", "/r") == "a/b.py");
  CHECK(display_path("/a/b.py", "/") == "a/b.py");
  CHECK(display_path("/r/a//b.py", "/r") == "a/b.py");
  CHECK(display_path("/r/x/a.py", "/r/.") == "x/a.py");
  CHECK(display_path("/r/x/a.py", "/r/") == "x/a.py");
  CHECK(display_path("/r/..x/a.py", "/r") == "/r/..x/a.py");  // a name starting ".." keeps its full path
  CHECK(display_path("/s/a.py", "/r") == "/s/a.py");
}

TEST_CASE("glob matching for excludes") {
  CHECK(glob_match("third_party/**", "third_party/a/b.txt"));
  CHECK(glob_match("*.ipynb", "notebooks/x.ipynb"));
  CHECK(glob_match("data/", "data/x.yaml"));
  CHECK_FALSE(glob_match("data/", "mydata/x.yaml"));
  CHECK(glob_match("**/legacy/*.txt", "a/legacy/r.txt"));
  CHECK_FALSE(glob_match("*.yaml", "x.yml"));
}

TEST_CASE("glob '*' stops at '/', '**' crosses directories") {
  CHECK(glob_match("a/*.txt", "a/requirements.txt"));
  CHECK_FALSE(glob_match("a/*.txt", "a/b/requirements.txt"));  // issue 13
  CHECK(glob_match("a/**/*.txt", "a/b/requirements.txt"));
  CHECK(glob_match("a/**/*.txt", "a/requirements.txt"));
  CHECK(glob_match("a/**", "a/b/c/d.txt"));
  CHECK_FALSE(glob_match("a/?/x", "a/b/c/x"));
  CHECK(glob_match("./a/*.txt", "a/r.txt"));
  CHECK(glob_match("a/*", "a/b/requirements.txt"));  // a/b is matched, so all below it
  CHECK(glob_match("legacy", "x/legacy/r.txt"));
  CHECK_FALSE(glob_match("a/*.txt", "x/a/r.txt"));  // a pattern with '/' is anchored
  CHECK_FALSE(glob_match("", "a"));
}

TEST_CASE("YAML entries carry key paths and exact value ranges") {
  SourceFile f("c.yaml",
               "defaults: &d\n  lr: 1e-4\nnum_machines: 2\nparallelism_config:\n  parallelism_config_tp_size: 2  # tp\n"
               "name: \"quoted value\"\nlist: [a, bb]\ntrain:\n  <<: *d\n");
  std::vector<ConfigEntry> es;
  ParseDiag d;
  yaml_entries(f, es, d);
  REQUIRE(d.notes.empty());
  auto find = [&](const std::string& dotted) -> const ConfigEntry* {
    for (auto& e : es) if (e.dotted() == dotted) return &e;
    return nullptr;
  };
  const ConfigEntry* tp = find("parallelism_config.parallelism_config_tp_size");
  REQUIRE(tp);
  CHECK(tp->value == "2");
  CHECK(tp->value_loc.range.line == 5);
  CHECK(tp->value_loc.range.col == 31);
  CHECK(tp->value_loc.range.end_col == 32);
  CHECK(tp->key_loc.range.col == 3);
  const ConfigEntry* q = find("name");
  REQUIRE(q);
  CHECK(q->value_loc.range.end_col - q->value_loc.range.col == 14);
  const ConfigEntry* l1 = find("list[1]");
  REQUIRE(l1);
  CHECK(l1->value == "bb");
  CHECK(l1->value_loc.range.end_col - l1->value_loc.range.col == 2);
  CHECK(find("train.lr"));  // merge key resolved into the parent
}

TEST_CASE("YAML syntax errors name the line") {
  SourceFile f("bad.yaml", "a: 1\nb: [1, 2\n");
  std::vector<ConfigEntry> es;
  ParseDiag d;
  yaml_entries(f, es, d);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].id == "parse-error");
  CHECK(d.notes[0].range.line >= 2);
}

TEST_CASE("JSON entries with positions, and errors") {
  SourceFile f("ds.json", "{\n  \"zero_optimization\": {\"stage\": 2},\n  \"tensor_parallel\": {\"autotp_size\": 2}\n}\n");
  std::vector<ConfigEntry> es;
  ParseDiag d;
  json_entries(f, es, d);
  CHECK(d.notes.empty());
  bool found = false;
  for (auto& e : es)
    if (e.dotted() == "tensor_parallel.autotp_size") {
      found = true;
      CHECK(e.value == "2");
      CHECK(e.value_loc.range.line == 3);
      CHECK(e.value_loc.range.col == 38);
    }
  CHECK(found);
  SourceFile bad("bad.json", "{\"a\": }");
  std::vector<ConfigEntry> es2;
  ParseDiag d2;
  json_entries(bad, es2, d2);
  REQUIRE(d2.notes.size() == 1);
  CHECK(d2.notes[0].message.find("JSON syntax error") != std::string::npos);
}

TEST_CASE("TOML entries with positions, and errors") {
  SourceFile f("t.toml", "[parallelism]\ntensor_parallel_degree = 2\nname = \"x\"\n[[tool.uv.index]]\nurl = \"https://e/cu130\"\n");
  std::vector<ConfigEntry> es;
  ParseDiag d;
  toml_entries(f, es, d);
  CHECK(d.notes.empty());
  bool tp = false, url = false;
  for (auto& e : es) {
    if (e.dotted() == "parallelism.tensor_parallel_degree") {
      tp = true;
      CHECK(e.value == "2");
      CHECK(e.value_loc.range.line == 2);
      CHECK(e.value_loc.range.col == 26);
      CHECK(e.key_loc.range.col == 1);
    }
    if (e.dotted() == "tool.uv.index[0].url") url = e.value == "https://e/cu130";
  }
  CHECK(tp);
  CHECK(url);
  SourceFile bad("bad.toml", "a = \n");
  std::vector<ConfigEntry> es2;
  ParseDiag d2;
  toml_entries(bad, es2, d2);
  REQUIRE(d2.notes.size() == 1);
  CHECK(d2.notes[0].range.line == 1);
}

TEST_CASE("rule docs and registered checks agree") {
  // every registered id has a doc; every doc is checked by something; checks come from the registry
  // (tests register rules of their own, e.g. X1: only G-numbers must have a doc)
  for (const auto& id : registered_ids()) {
    bool g_number = id.size() > 1 && id[0] == 'G' && id.find_first_not_of("0123456789", 1) == std::string::npos;
    if (!g_number) continue;
    INFO(id);
    CHECK(find_rule_doc(id) != nullptr);
  }
  for (const auto& d : rule_docs()) {
    INFO(d.source_file);
    CHECK(!d.checks.empty());
    CHECK(d.checks == checks_of(d.id));
  }
  CHECK(checks_of("G1") == std::vector<std::string>{"lint", "probe"});
  CHECK(checks_of("G3") == std::vector<std::string>{"probe"});
  CHECK(checks_of("unused-suppression") == std::vector<std::string>{"lint"});
  CHECK(rule_id_less("G2", "G10"));
  CHECK(rule_id_less("G10", "unused-suppression"));
}

TEST_CASE("rule docs: every rule documented with front matter") {
  const auto& docs = rule_docs();
  for (const auto& d : docs) {
    INFO(d.source_file);
    CHECK(!d.id.empty());
    CHECK(!d.name.empty());
    CHECK(!d.short_description.empty());
    CHECK(!d.full_description.empty());
    CHECK((d.default_level == "error" || d.default_level == "warning" || d.default_level == "note"));
    CHECK(d.markdown.find("## Fix") != std::string::npos);
    CHECK(d.markdown.find("## Sources") != std::string::npos);
  }
  CHECK(find_rule_doc("g1") == find_rule_doc("G1"));
  CHECK(markdown_to_text("# T\nUse `x` and **y** [docs](http://e)") == "T\nUse x and y docs (http://e)");
}

TEST_CASE("fingerprints survive moved lines") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "sc-fp-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto lint = [&](const std::string& text) {
    std::ofstream(dir / "requirements.txt") << text;
    LintOptions o;
    o.paths = {dir.string()};
    o.root = dir.string();
    o.no_ignore = true;
    return run_lint(o);
  };
  LintResult a = lint("torch==2.5.1+cu124\n");
  LintResult b = lint("# a comment\n\n\ntorch==2.5.1+cu124\n");
  REQUIRE(!a.findings.empty());
  REQUIRE(a.findings.size() == b.findings.size());
  CHECK(a.findings[0].fingerprint == b.findings[0].fingerprint);
  CHECK(a.findings[0].loc.range.line != b.findings[0].loc.range.line);
  fs::remove_all(dir);
}

TEST_CASE("YAML with a stray ',' at block level is rejected before yaml-cpp (it would loop forever)") {
  for (const char* t : {", a", "--- ,", "!!str ,", "&x ,", "a: 1\n--- ,\n", "# c\n\n,,", "{}, x", "[], x",
                        "{\n \"cells\": [],\n \"m\": {}\n },\n \"n\": 5"}) {
    INFO(t);
    int line = 0;
    CHECK_FALSE(yaml_safe_for_yaml_cpp(t, &line));
    SourceFile f("x.yaml", t);
    std::vector<ConfigEntry> es;
    ParseDiag d;
    yaml_entries(f, es, d);
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].range.line == line);
  }
  for (const char* t : {"a: ,", "- ,", "a: [1, ,]", "[,]", "a,", "a: 1\n, b", "a: 1\n---\nb: 2\n...\n", ""}) {
    INFO(t);
    CHECK(yaml_safe_for_yaml_cpp(t, nullptr));
  }
}

TEST_CASE("JSON with Python's NaN/Infinity is reported at the value") {
  SourceFile f("snr.json", "{\n  \"layer.0\": {\n    \"snr\": Infinity,\n    \"type\": \"norm\"\n  }\n}\n");
  std::vector<ConfigEntry> es;
  ParseDiag d;
  json_entries(f, es, d);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].range.line == 3);
  CHECK(d.notes[0].range.col == 12);
  CHECK(d.notes[0].message.find("Infinity is not a JSON value") != std::string::npos);
}

TEST_CASE("a released source re-reads its lines, one file at a time, and only while unchanged") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "sc-release-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string a_text = "\xEF\xBB\xBFone\r\ntwo \xC3\xA9\n", b_text = "alpha\nbeta\n";
  std::ofstream(dir / "a.txt", std::ios::binary) << a_text;
  std::ofstream(dir / "b.txt", std::ios::binary) << b_text;
  SourceFile a("a.txt", a_text.substr(3)), b("b.txt", b_text);
  Range before = a.range(5, 8);
  a.release((dir / "a.txt").string(), content_hash(a_text), a_text.size());
  b.release((dir / "b.txt").string(), content_hash(b_text), b_text.size());
  CHECK(a.released());
  CHECK(a.line(2) == "two \xC3\xA9");
  CHECK(b.line(1) == "alpha");  // drops a's text again
  CHECK(a.line(1) == "one");
  CHECK(a.range(5, 8) == before);
  CHECK(a.line_count() == 3);
  std::ofstream(dir / "b.txt", std::ios::binary) << "changed\n";
  CHECK(b.line(1).empty());  // changed since it was read: no line shown
  CHECK(hash_bytes("abc") != hash_bytes("abd"));
  CHECK(hash_bytes("") != hash_bytes(std::string(1, '\0')));
  fs::remove_all(dir);
}

TEST_CASE("content_hash is BLAKE2b-256 of the bytes") {
  ContentHash h = content_hash("abc");  // RFC 7693 test vector, 32-byte output
  const auto* b = reinterpret_cast<const unsigned char*>(h.words.data());
  std::string hex;
  for (size_t i = 0; i < sizeof h.words; ++i) hex += "0123456789abcdef"[b[i] >> 4], hex += "0123456789abcdef"[b[i] & 15];
  CHECK(hex == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
  CHECK(content_hash("abc") != content_hash("abd"));
  CHECK(content_hash("") != content_hash(std::string(1, '\0')));
}

namespace {

// What YAML::LoadAll gives, flattened like yaml_entries: path, value and the value's mark,
// for every scalar and null below the top (the reference for the one-pass reader).
void flatten(const YAML::Node& n, const std::string& path, std::vector<std::string>& out, int depth = 0) {
  if (depth > 50) return;
  auto at = [](const YAML::Node& x) { return "@" + std::to_string(x.Mark().line + 1) + ":" + std::to_string(x.Mark().column + 1); };
  if (n.IsScalar() && !path.empty()) out.push_back(path + "=" + n.Scalar() + at(n));
  if (n.IsNull() && !path.empty()) out.push_back(path + "=~");
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string k = it->first.IsScalar() ? it->first.Scalar() : "?";
      if (k == "<<" && it->second.IsMap()) {
        for (auto m = it->second.begin(); m != it->second.end(); ++m)
          if (m->first.IsScalar()) flatten(m->second, path + "/" + m->first.Scalar(), out, depth + 1);
      } else if (k != "<<") {
        flatten(it->second, path + "/" + k, out, depth + 1);
      }
    }
  }
  if (n.IsSequence())
    for (size_t i = 0; i < n.size(); ++i) flatten(n[i], path + "/[" + std::to_string(i) + "]", out, depth + 1);
}

}  // namespace

TEST_CASE("yaml_entries reads in one pass what YAML::LoadAll gives", "[config]") {
  const std::vector<std::string> texts = {
      "a: 1\nb: [x, {c: ~}]\n",
      "base: &b {lr: 1e-4, tp: 2}\nrun:\n  <<: *b\n  tp: 4\nlist: [*b, *b]\n",
      "---\na: 1\n---\n---\n- x\n- ? [k]\n  : v\n...\n",
      "dup: 1\ndup: 2\nnull_key:\n~: z\nempty: ''\n",
      "seq:\n- &s one\n- *s\n- !!str 12\n- 'q' \n- \"d\\n\"\nblock: |\n  line\n",
  };
  for (const std::string& t : texts) {
    INFO(t);
    SourceFile f("c.yaml", t);
    std::vector<ConfigEntry> es;
    ParseDiag d;
    yaml_entries(f, es, d);
    CHECK(d.notes.empty());
    std::vector<std::string> got, want;
    for (const ConfigEntry& e : es) {
      std::string p;
      for (const auto& k : e.path) p += "/" + k;
      if (!e.scalar) continue;
      bool null = e.value.empty() && e.value_loc.range == e.key_loc.range;
      got.push_back(p + "=" + (null ? "~" : e.value + "@" + std::to_string(e.value_loc.range.line) + ":" +
                                                 std::to_string(e.value_loc.range.col)));
    }
    for (const YAML::Node& n : YAML::LoadAll(t)) flatten(n, "", want);
    CHECK(got == want);
  }
}

TEST_CASE("max_nesting: brackets found at every offset of the 8-byte blocks it skips", "[core]") {
  for (size_t pad = 0; pad < 24; ++pad) {
    std::string t = std::string(pad, 'x') + "[(" + std::string(pad % 9, 'y') + "{})]" + std::string(pad, 'z');
    NestingScan s = max_nesting(t);
    CHECK(s.depth == 3);
    CHECK(s.offset == pad + 2 + pad % 9);
  }
  NestingScan deep = max_nesting(std::string(10, 'a') + std::string(50, '['), 20);
  CHECK(deep.depth == 21);
  CHECK(deep.offset == 30);
  CHECK(max_nesting(std::string(100, 'a')).depth == 0);
}

TEST_CASE("max_json_nesting: brackets inside strings do not count", "[core]") {
  std::string ansi;
  for (int i = 0; i < 3000; ++i) ansi += "\\u001b[0;31m";
  CHECK(max_json_nesting("{\"text\": [\"" + ansi + "\"]}").depth == 2);
  CHECK(max_json_nesting(R"({"a": "x\"[[[", "b": [[1]]})").depth == 3);   // an escaped quote stays in the string
  CHECK(max_json_nesting(R"({"a": "x\\", "b": [[1]]})").depth == 3);      // an escaped backslash ends it
  NestingScan deep = max_json_nesting(std::string(50, '[') + "\"]]]\"", 20);
  CHECK(deep.depth == 21);
  CHECK(deep.offset == 20);
  CHECK(max_json_nesting("[\"unterminated [[[[").depth == 1);
}

TEST_CASE("find_nocase finds a lower-case needle in any case", "[core]") {
  using sc::find_nocase;
  constexpr auto npos = std::string_view::npos;
  CHECK(find_nocase("use NvFp4 here", "nvfp4") == 4);
  CHECK(find_nocase("nvfp nvfp4", "nvfp4") == 5);
  CHECK(find_nocase("nvfp", "nvfp4") == npos);
  CHECK(find_nocase("4nvfp4", "nvfp4", 1) == 1);
  CHECK(find_nocase("4nvfp4", "nvfp4", 2) == npos);
  CHECK(find_nocase("xx ABC", "abc") == 3);  // letters only: byte scan
  CHECK(find_nocase("ab", "abc") == npos);
  CHECK(find_nocase("", "a4") == npos);
  CHECK(find_nocase("abc", "") == 0);
}
