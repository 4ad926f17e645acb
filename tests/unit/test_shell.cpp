// SPDX-License-Identifier: Apache-2.0
// Unit tests for the shell layer (linter/parsers/shell.*).
#include <catch2/catch.hpp>

#include <tree_sitter/api.h>

#include "core/registry.h"
#include "parsers/shell.h"

extern "C" const TSLanguage* tree_sitter_bash(void);

using namespace sc;

namespace {

struct Parsed {
  FileFacts facts;
  ParseDiag diag;
};

Parsed sh(const std::string& text, std::map<std::string, std::string> vars = {}) {
  Parsed p;
  SourceFile src("run.sh", text);
  parse_shell(src, vars, -1, CommandContext::Script, p.facts, p.diag);
  return p;
}

std::vector<std::string> argv(const Command& c) {
  std::vector<std::string> v;
  for (auto& w : c.argv) v.push_back(w.text);
  return v;
}

const Command* find_cmd(const FileFacts& f, const std::string& prog) {
  for (auto& c : f.commands)
    if (!c.argv.empty() && c.argv[0].text == prog) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("bash grammar loads in this tree-sitter", "[shell]") {
  TSParser* p = ts_parser_new();
  REQUIRE(ts_parser_set_language(p, tree_sitter_bash()));
  ts_parser_delete(p);
  REQUIRE(ts_language_version(tree_sitter_bash()) <= TREE_SITTER_LANGUAGE_VERSION);
}

TEST_CASE("simple commands in lists, pipelines, subshells and compound statements", "[shell]") {
  auto p = sh(
      "pip install a && (cd x; make) | tee log || echo fail\n"
      "if [ -f y ]; then vllm serve m; fi\n"
      "for i in 1 2; do echo $i; done\n"
      "f() { torchrun train.py; }\n"
      "while true; do sleep 1; done\n"
      "case $x in a) uv pip install b;; esac\n"
      "! negated\n");
  std::vector<std::string> progs;
  for (auto& c : p.facts.commands) progs.push_back(c.argv[0].text);
  CHECK(progs == std::vector<std::string>{"pip", "cd", "make", "tee", "echo", "vllm", "echo", "torchrun",
                                          "true", "sleep", "uv", "negated"});
  CHECK(p.diag.notes.empty());
}

TEST_CASE("a script ending in a line continuation is read (bash runs it)", "[shell]") {
  for (const char* text : {"echo a \\\n", "echo a \\\n\n  \n", "bash -c \"\\\npip install x \\\n\"\n"}) {
    auto p = sh(text);
    CHECK(p.diag.notes.empty());
    CHECK(!p.facts.commands.empty());
  }
  auto nested = sh("bash -c \"\\\npip install x \\\n\"\n");
  REQUIRE(find_cmd(nested.facts, "pip") != nullptr);
  CHECK(find_cmd(nested.facts, "pip")->argv[2].loc.range.line == 2);
  auto escaped = sh("echo a \\\\\n");  // `\\` ends the line: an escaped backslash, no continuation
  CHECK(escaped.diag.notes.empty());
  REQUIRE(find_cmd(escaped.facts, "echo") != nullptr);
  CHECK(argv(*find_cmd(escaped.facts, "echo")) == std::vector<std::string>{"echo", "a", "\\"});
}

TEST_CASE("a single-quoted bash -c body that quotes a quote is read whole", "[shell]") {
  auto p = sh("bash -c 'echo '\\''a b'\\'' && pip install '\\''torch>=2'\\'''\n");
  CHECK(p.diag.notes.empty());
  const Command* echo = find_cmd(p.facts, "echo");
  REQUIRE(echo != nullptr);
  CHECK(argv(*echo) == std::vector<std::string>{"echo", "a b"});
  const Command* pip = find_cmd(p.facts, "pip");
  REQUIRE(pip != nullptr);
  CHECK(argv(*pip) == std::vector<std::string>{"pip", "install", "torch>=2"});
  CHECK(pip->argv[2].loc.range.col == 44);  // the escaped quote that opens the inner word
}

TEST_CASE("quote removal and exact locations", "[shell]") {
  auto p = sh("python  -m pip install \"torch==2.9\" 'x y' a\"b\"c $'t\\tb'\n");
  REQUIRE(p.facts.commands.size() == 1);
  const Command& c = p.facts.commands[0];
  CHECK(argv(c) == std::vector<std::string>{"python", "-m", "pip", "install", "torch==2.9", "x y", "abc", "t\tb"});
  CHECK(c.argv[4].raw == "\"torch==2.9\"");
  CHECK(c.argv[4].loc.path == "run.sh");
  CHECK(c.argv[4].loc.range == Range{1, 24, 1, 36});
  CHECK(c.argv[0].loc.range == Range{1, 1, 1, 7});
  CHECK(c.loc.range.line == 1);
  CHECK(c.context == CommandContext::Script);
}

TEST_CASE("variables: assignments feed later words in source order", "[shell]") {
  auto p = sh(
      "TP=2\n"
      "torchrun a.py --tp $TP --pp ${PP} --cp ${CP:-4} --x \"${TP}x\"\n"
      "export TP=3 NAME=\"a b\"\n"
      "declare -x DP=5\n"
      "run --tp=$TP --name \"$NAME\" --dp $DP --sub $(nproc) --len ${#NAME}\n"
      "unset TP\n"
      "again $TP\n");
  const Command* t = find_cmd(p.facts, "torchrun");
  REQUIRE(t);
  CHECK(flag_value(*t, {"--tp"})->text == "2");
  CHECK(flag_value(*t, {"--tp"})->resolved);
  CHECK_FALSE(flag_value(*t, {"--pp"})->resolved);
  CHECK(flag_value(*t, {"--pp"})->text == "${PP}");
  CHECK(flag_value(*t, {"--cp"})->text == "4");
  CHECK(flag_value(*t, {"--cp"})->resolved);
  CHECK(flag_value(*t, {"--x"})->text == "2x");
  const Command* r = find_cmd(p.facts, "run");
  REQUIRE(r);
  CHECK(flag_value(*r, {"--tp"})->text == "3");
  CHECK(flag_value(*r, {"--name"})->text == "a b");
  CHECK(flag_value(*r, {"--dp"})->text == "5");
  CHECK_FALSE(flag_value(*r, {"--sub"})->resolved);
  CHECK(flag_value(*r, {"--len"})->text == "3");
  const Command* a = find_cmd(p.facts, "again");
  REQUIRE(a);
  CHECK_FALSE(a->argv[1].resolved);
  REQUIRE(p.facts.env.size() == 4);
  CHECK(p.facts.env[0].name == "TP");
  CHECK(p.facts.env[0].origin == EnvOrigin::Assign);
  CHECK(p.facts.env[1].origin == EnvOrigin::Export);
  CHECK(p.facts.env[2].value == "a b");
  CHECK(p.facts.env[3].name == "DP");
  CHECK(p.facts.env[3].origin == EnvOrigin::Export);
  CHECK(p.facts.env[0].loc.range == Range{1, 4, 1, 5});
  // nproc's command substitution is a command too
  CHECK(find_cmd(p.facts, "nproc"));
}

TEST_CASE("unresolved values make a variable unknown; known vars come in", "[shell]") {
  auto p = sh("N=$(hostname)\nX=$BASE/y\ncmd $N $X $ARGV\n", {{"BASE", "/opt"}});
  const Command* c = find_cmd(p.facts, "cmd");
  REQUIRE(c);
  CHECK_FALSE(c->argv[1].resolved);
  CHECK(c->argv[2].text == "/opt/y");
  CHECK(c->argv[2].resolved);
  CHECK_FALSE(c->argv[3].resolved);
}

TEST_CASE("loop variables are unknown", "[shell]") {
  auto p = sh("TP=2\nfor TP in 1 2; do run --tp $TP; done\n");
  const Command* c = find_cmd(p.facts, "run");
  REQUIRE(c);
  CHECK_FALSE(flag_value(*c, {"--tp"})->resolved);
}

TEST_CASE("env prefixes are not persistent", "[shell]") {
  auto p = sh("CUDA_VISIBLE_DEVICES=0 TORCH_CUDA_ARCH_LIST=\"12.1\" pip install . \necho $TORCH_CUDA_ARCH_LIST\n");
  const Command* c = find_cmd(p.facts, "pip");
  REQUIRE(c);
  REQUIRE(c->env.size() == 2);
  CHECK(c->env[1].first == "TORCH_CUDA_ARCH_LIST");
  CHECK(c->env[1].second.text == "12.1");
  CHECK(c->env[1].second.loc.range == Range{1, 45, 1, 51});
  CHECK(argv(*c) == std::vector<std::string>{"pip", "install", "."});
  CHECK_FALSE(find_cmd(p.facts, "echo")->argv[1].resolved);
  CHECK(p.facts.env.empty());
}

TEST_CASE("redirects and heredoc bodies are not arguments or commands", "[shell]") {
  auto p = sh("cat > out.txt <<EOF\npip install nope\nEOF\nrun a 2>&1 >log\n");
  CHECK(find_cmd(p.facts, "cat"));
  CHECK_FALSE(find_cmd(p.facts, "pip"));
  CHECK(argv(*find_cmd(p.facts, "run")) == std::vector<std::string>{"run", "a"});
}

TEST_CASE("bash -c bodies are parsed with real locations", "[shell]") {
  auto p = sh("X=7\nbash -lc 'pip install z && vllm serve m --tp $X'\nsh -c \"echo hi\"\n");
  const Command* v = find_cmd(p.facts, "vllm");
  REQUIRE(v);
  CHECK(flag_value(*v, {"--tp"})->text == "7");
  CHECK(v->argv[0].loc.range == Range{2, 28, 2, 32});
  const Command* pip = find_cmd(p.facts, "pip");
  REQUIRE(pip);
  CHECK(pip->argv[0].loc.range == Range{2, 11, 2, 14});
  CHECK(find_cmd(p.facts, "echo"));
}

TEST_CASE("#SBATCH directives before the first command", "[shell]") {
  auto p = sh("#!/bin/bash\n#SBATCH --nodes=2  # two sparks\n#SBATCH -N 2\n#SBATCH --gres=gpu:1\n#SBATCHX no\n"
              "srun x\n#SBATCH --nodes=8\n");
  REQUIRE(p.facts.sbatch.size() == 3);
  CHECK(argv(p.facts.sbatch[0]) == std::vector<std::string>{"#SBATCH", "--nodes=2"});
  CHECK(flag_value(p.facts.sbatch[0], {"--nodes", "-N"})->text == "2");
  CHECK(flag_value(p.facts.sbatch[1], {"--nodes", "-N"})->text == "2");
  CHECK(p.facts.sbatch[0].argv[1].loc.range == Range{2, 9, 2, 18});
}

TEST_CASE("flag_value forms", "[shell]") {
  auto p = sh("run --tp 2 --pp=3 -tp 4 -N2 -n 5 --tp-size 6 --flag\n");
  const Command& c = p.facts.commands.at(0);
  CHECK(flag_value(c, {"--pp"})->text == "3");
  CHECK(flag_value(c, {"-tp"})->text == "4");
  CHECK(flag_value(c, {"--tp"})->text == "2");
  CHECK(flag_value(c, {"-N"})->text == "2");
  CHECK(flag_value(c, {"-n"})->text == "5");
  CHECK(flag_value(c, {"--tp-size"})->text == "6");
  CHECK_FALSE(flag_value(c, {"--flag"}));
  CHECK_FALSE(flag_value(c, {"--missing"}));
  CHECK(has_flag(c, {"--flag"}));
  CHECK(has_flag(c, {"--pp"}));
  CHECK_FALSE(has_flag(c, {"--p"}));
  auto q = sh("run --x 1 --x 2\n");
  CHECK(flag_value(q.facts.commands.at(0), {"--x"})->text == "2");
}

TEST_CASE("syntax errors give one warning and keep the commands", "[shell]") {
  auto p = sh("pip install a\necho \"unterminated\n");
  CHECK(find_cmd(p.facts, "pip"));
  REQUIRE(p.diag.notes.size() == 1);
  CHECK(p.diag.notes[0].level == Level::Warning);
  CHECK(p.diag.notes[0].path == "run.sh");
}

TEST_CASE("views map command locations to the real file", "[shell]") {
  // A Dockerfile: RUN body starts at line 2, column 5 (bytes).
  std::string real = "FROM x\nRUN pip install a \\\n    && torchrun --tp 2\n";
  SourceFile file("Dockerfile", real);
  SourceFile view("Dockerfile", "pip install a \\\n    && torchrun --tp 2");
  view.set_line_map({{2, 4, file.line(2)}, {3, 0, file.line(3)}});
  FileFacts f;
  ParseDiag d;
  parse_shell(view, {}, 0, CommandContext::Run, f, d);
  const Command* t = find_cmd(f, "torchrun");
  REQUIRE(t);
  CHECK(t->argv[0].loc.range == Range{3, 8, 3, 16});
  CHECK(t->stage == 0);
  CHECK(t->context == CommandContext::Run);
  CHECK(find_cmd(f, "pip")->argv[0].loc.range == Range{2, 5, 2, 8});
}

TEST_CASE("expand_word defaults and alternates", "[shell]") {
  std::map<std::string, std::string> v{{"A", "1"}, {"E", ""}};
  CHECK(expand_word("${A:-2}", v).text == "1");
  CHECK(expand_word("${E:-2}", v).text == "2");
  CHECK(expand_word("${E-2}", v).text == "");
  CHECK(expand_word("${U:-\"x y\"}", v).text == "x y");
  CHECK(expand_word("${A:+on}", v).text == "on");
  CHECK_FALSE(expand_word("${U:+on}", v).resolved);
  CHECK_FALSE(expand_word("${A%%x}", v).resolved);
  CHECK_FALSE(expand_word("$1", v).resolved);
  CHECK_FALSE(expand_word("`date`", v).resolved);
  CHECK(expand_word("a\\ b", v).text == "a b");
  CHECK(expand_word("\"\\$A\"", v).text == "$A");
}

TEST_CASE("shell files are recognised by name and shebang", "[shell]") {
  CHECK(shell_shebang("#!/bin/bash\n"));
  CHECK(shell_shebang("#!/usr/bin/env -S bash -e\n"));
  CHECK(shell_shebang("#!/bin/sh"));
  CHECK_FALSE(shell_shebang("#!/usr/bin/env python3\n"));
  CHECK(shebang_interpreter("#!/usr/bin/python3 -u\n") == "python3");
  FileInfo a{"scripts/train.slurm", "train.slurm", ""};
  FileInfo b{"bin/launch", "launch", "#!/usr/bin/env bash\necho"};
  FileInfo c{"bin/tool", "tool", "#!/usr/bin/env python3\n"};
  const Parser* pa = parser_for(a);
  const Parser* pb = parser_for(b);
  REQUIRE(pa);
  REQUIRE(pb);
  CHECK(pa->kind() == FileKind::Shell);
  CHECK(pb->kind() == FileKind::Shell);
  const Parser* pc = parser_for(c);
  CHECK((pc == nullptr || pc->kind() != FileKind::Shell));
}

TEST_CASE("word splitting of unquoted expansions and arrays (Megatron-style launchers)", "[shell]") {
  auto p = sh(
      "GPUS_PER_NODE=8\n"
      "DIST=\"--nproc_per_node $GPUS_PER_NODE --nnodes 1\"\n"
      "MP_ARGS=(\n"
      "  --tensor-model-parallel-size 8\n"
      "  --pipeline-model-parallel-size 2\n"
      ")\n"
      "MP_ARGS+=(--sequence-parallel)\n"
      "torchrun $DIST pretrain_gpt.py ${MP_ARGS[@]} \"${MP_ARGS[@]}\" \"$DIST\"\n");
  const Command* t = find_cmd(p.facts, "torchrun");
  REQUIRE(t);
  CHECK(flag_value(*t, {"--nproc_per_node"})->text == "8");
  CHECK(flag_value(*t, {"--nnodes"})->text == "1");
  CHECK(flag_value(*t, {"--tensor-model-parallel-size"})->text == "8");
  CHECK(has_flag(*t, {"--sequence-parallel"}));
  CHECK(t->argv.back().text == "--nproc_per_node 8 --nnodes 1");  // quoted: one word
  CHECK(t->argv.size() == 1 + 4 + 1 + 5 + 5 + 1);
}

TEST_CASE("a command held in a variable keeps its known flags where they are written", "[shell]") {
  auto p = sh(
      "CMD=\"vllm serve $MODEL --tp 2\"\n"
      "CMD=\"$CMD --pp 1\"\n"
      "exec $CMD\n"
      "echo \"$CMD\"\n");
  const Command* c = find_cmd(p.facts, "exec");
  REQUIRE(c);
  CHECK(argv(*c) == std::vector<std::string>{"exec", "vllm", "serve", "$MODEL", "--tp", "2", "--pp", "1"});
  CHECK_FALSE(c->argv[3].resolved);
  auto tp = flag_value(*c, {"--tp"});
  REQUIRE(tp);
  CHECK(tp->resolved);
  CHECK(tp->loc.range == Range{1, 29, 1, 30});                   // where 2 is written
  CHECK(flag_value(*c, {"--pp"})->loc.range == Range{2, 16, 2, 17});
  REQUIRE(p.facts.expansions.size() == 7);                        // every word but exec
  CHECK(p.facts.expansions[4].written.range == Range{1, 29, 1, 30});
  CHECK(p.facts.expansions[4].used.range == Range{3, 6, 3, 10});  // $CMD
  // a quoted expansion is one word, at the expansion
  const Command* e = find_cmd(p.facts, "echo");
  REQUIRE(e);
  CHECK(e->argv.size() == 2);
}

TEST_CASE("a single-word variable, unset and loop variables keep the old behaviour", "[shell]") {
  auto p = sh("TP=2\nrun --tp $TP\nCMD=\"a b\"\nunset CMD\ngo $CMD\n");
  const Command* r = find_cmd(p.facts, "run");
  REQUIRE(r);
  CHECK(flag_value(*r, {"--tp"})->loc.range.line == 2);  // one word: found at the expansion
  const Command* g = find_cmd(p.facts, "go");
  REQUIRE(g);
  CHECK(g->argv.size() == 2);
  CHECK_FALSE(g->argv[1].resolved);
  CHECK(p.facts.expansions.empty());
}

TEST_CASE("a sourced settings file sets variables and arrays from the source line on", "[shell]") {
  SourceFile conf("models.conf", "TP=2\nARGS=(\n  --max-model-len 8192\n  --tensor-parallel-size 2\n)\n");
  ShellEnv env = shell_env(conf);
  REQUIRE(env.vars.count("TP"));
  CHECK(env.vars.at("TP") == "2");
  REQUIRE(env.words.count("ARGS"));
  CHECK(env.words.at("ARGS").size() == 4);
  CHECK(env.words.at("ARGS")[3].loc.range.line == 4);

  SourcedFiles sourced{{"./models.conf", env}};
  Parsed p;
  SourceFile src("run.sh", "vllm serve m --tp \"$TP\"\nsource ./models.conf\nvllm serve m \"${ARGS[@]}\" --tp \"$TP\"\n");
  parse_shell(src, {}, -1, CommandContext::Script, p.facts, p.diag, &sourced);
  REQUIRE(p.facts.commands.size() == 3);
  CHECK_FALSE(p.facts.commands[0].argv[4].resolved);  // before the source line: unknown
  const Command& c = p.facts.commands[2];
  REQUIRE(c.argv.size() == 9);
  CHECK(c.argv[6].text == "2");
  CHECK(c.argv[6].loc.path.str() == "models.conf");  // the array's word stays where written
  CHECK(c.argv[8].text == "2");
  CHECK(c.argv[8].loc.path.str() == "models.conf");  // "$TP" alone: the value where it is written
  CHECK(c.argv[8].loc.range.line == 1);
  bool noted = false;
  for (const Expansion& x : p.facts.expansions)
    noted = noted || (x.what == "used here ($TP)" && x.used.path.str() == "run.sh" && x.used.range.line == 3);
  CHECK(noted);
}

TEST_CASE("a word that only partly reads a sourced variable stays in the script", "[shell]") {
  SourcedFiles sourced{{"./m.conf", shell_env(SourceFile("m.conf", "NAME=llama\n"))}};
  Parsed p;
  SourceFile src("run.sh", "source ./m.conf\nvllm serve org/$NAME\n");
  parse_shell(src, {}, -1, CommandContext::Script, p.facts, p.diag, &sourced);
  REQUIRE(p.facts.commands.size() == 2);
  const Word& w = p.facts.commands[1].argv[2];
  CHECK(w.text == "org/llama");
  CHECK(w.loc.path.str() == "run.sh");
  bool noted = false;
  for (const Expansion& x : p.facts.expansions) noted = noted || x.what == "set in m.conf (NAME=llama)";
  CHECK(noted);
}

TEST_CASE("double-quoted bash -c strings are read as scripts", "[shell]") {
  Parsed p = sh("M=m\ndocker exec ctr bash -lc \"vllm serve $M \\\n  --tensor-parallel-size 2\"\n");
  bool found = false;
  for (const Command& c : p.facts.commands)
    if (!c.argv.empty() && c.argv[0].text == "vllm") {
      found = true;
      CHECK(argv(c) == std::vector<std::string>{"vllm", "serve", "m", "--tensor-parallel-size", "2"});
    }
  CHECK(found);
  // with a command substitution inside, the outer walk reads it: not parsed twice
  Parsed q = sh("bash -c \"echo $(date) && vllm serve m\"\n");
  int vllm = 0;
  for (const Command& c : q.facts.commands) vllm += !c.argv.empty() && c.argv[0].text == "vllm";
  CHECK(vllm == 0);
}

TEST_CASE("heredocs that write a Dockerfile, compose file or Python are parsed as that file", "[shell]") {
  auto images = [](const std::string& text) {
    std::vector<std::string> v;
    for (const Image& im : sh(text).facts.images) v.push_back(im.ref + "@" + std::to_string(im.loc.range.line));
    return v;
  };
  const std::string body = "\nFROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nEOF\n";
  SECTION("cat with > or >> before or after the heredoc, tee, sudo tee -a") {
    CHECK(images("cat > Dockerfile <<EOF" + body) == std::vector<std::string>{"nvidia/cuda:12.4.1-devel-ubuntu22.04@2"});
    CHECK(images("cat <<'EOF' >> d/Dockerfile.gpu" + body).size() == 1);
    CHECK(images("tee Containerfile <<EOF" + body).size() == 1);
    CHECK(images("sudo tee -a /opt/x/Dockerfile >/dev/null <<EOF" + body).size() == 1);
    CHECK(images("echo start\ncat > Dockerfile <<EOF" + body)[0] == "nvidia/cuda:12.4.1-devel-ubuntu22.04@3");
  }
  SECTION("other files, standard output, other programs, stderr redirects") {
    CHECK(images("cat > notes.txt <<EOF" + body).empty());
    CHECK(images("cat <<EOF" + body).empty());
    CHECK(images("grep FROM > Dockerfile <<EOF" + body).empty());
    CHECK(images("cat 2> Dockerfile <<EOF" + body).empty());
    CHECK(images("cat < Dockerfile <<EOF" + body).empty());
  }
  SECTION("compose files by name; python - and python without arguments") {
    auto f = sh("cat > docker-compose.yml <<EOF\nservices:\n  a:\n    image: nvcr.io/nvidia/pytorch:24.10-py3\nEOF\n").facts;
    REQUIRE(f.images.size() == 1);
    CHECK(f.images[0].loc.range.line == 4);
    CHECK(sh("cat > settings.yml <<EOF\nimage: nvcr.io/nvidia/pytorch:24.10-py3\nEOF\n").facts.images.empty());
    CHECK(sh("python3 - <<EOF\nimport torch\nEOF\n").facts.python.imports.size() == 1);
    CHECK(sh("python <<EOF\nimport torch\nEOF\n").facts.python.imports.size() == 1);
    CHECK(sh("python3 check.py <<EOF\nimport torch\nEOF\n").facts.python.imports.empty());
  }
}

TEST_CASE("variables holding 2+ words with a --flag are argument lists, words where written", "[shell][arg_lists]") {
  auto p = sh("ARGS=(\n  --max-model-len 8192\n  --tensor-parallel-size 2\n)\n"
              "ARGS+=(--headless)\n"
              "S=\"--tp 2 --port $PORT\"\n"
              "ONE=(--verbose)\n"
              "WORDS=(a b c)\n");
  const auto& lists = p.facts.arg_lists.all();
  REQUIRE(lists.size() == 2);
  // an append replaces the variable's entry: one list, all its words
  CHECK(argv(lists[0]) == std::vector<std::string>{"ARGS", "--max-model-len", "8192", "--tensor-parallel-size", "2", "--headless"});
  CHECK(lists[0].argv[4].loc.range.line == 3);
  CHECK(lists[0].argv[4].loc.range.col == 26);
  CHECK(argv(lists[1])[0] == "S");
  CHECK(lists[1].argv[1].text == "--tp");
  CHECK_FALSE(lists[1].argv.back().resolved);  // $PORT unknown
  // one word, or no flag: not an argument list
  auto q = sh("ONE=(--verbose)\nWORDS=(a b c)\nX=--tp\n");
  CHECK(q.facts.arg_lists.empty());
}

TEST_CASE("script_dir: the idioms for a script's own folder", "[shell]") {
  CHECK(sc::script_dir(R"x("$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)")x") == ".");
  CHECK(sc::script_dir(R"x($(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &> /dev/null && pwd))x") == ".");
  CHECK(sc::script_dir(R"x($(dirname "$(readlink -f "$0")"))x") == ".");
  CHECK(sc::script_dir(R"x("$(dirname "$0")/..")x") == "..");
  CHECK(sc::script_dir(R"x("$(cd "$(dirname "$0")/../.." && pwd)")x") == "../..");
  CHECK(sc::script_dir("`dirname $0`") == ".");
  // near misses: another folder below it, the working directory, a plain path
  CHECK_FALSE(sc::script_dir(R"x("$(dirname "$0")/scripts")x"));
  CHECK_FALSE(sc::script_dir(R"x("$(pwd)")x"));
  CHECK_FALSE(sc::script_dir("/opt/app"));
  CHECK_FALSE(sc::script_dir(R"x($(dirname "$MODEL_PATH"))x"));
}
