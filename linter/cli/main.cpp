// sparkcheck command line. The only translation unit that includes CLI11.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/engine.h"
#include "core/rule_docs.h"
#include "output/output.h"

namespace {

constexpr int kExitClean = 0, kExitFindings = 1, kExitError = 2;

struct FormatSpec {
  std::string name, file;  // "sarif:out.sarif" -> {sarif, out.sarif}
};

bool parse_format(const std::string& s, FormatSpec& out) {
  size_t c = s.find(':');
  out.name = s.substr(0, c);
  out.file = c == std::string::npos ? "" : s.substr(c + 1);
  return sc::output_writers().count(out.name) > 0;
}

std::string known_formats() {
  std::string r;
  for (auto& [k, v] : sc::output_writers()) r += (r.empty() ? "" : ", ") + k;
  return r;
}

int cmd_rules(const std::string& format) {
  const auto& docs = sc::rule_docs();
  if (format == "json") {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (auto& d : docs)
      a.push_back({{"id", d.id}, {"name", d.name}, {"short", d.short_description}, {"level", d.default_level},
                   {"checks", d.checks}, {"tags", d.tags}});
    std::cout << a.dump(2) << "\n";
    return kExitClean;
  }
  for (auto& d : docs) {
    std::string checks;
    for (auto& c : d.checks) checks += (checks.empty() ? "" : ",") + c;
    std::printf("%-4s %-8s %-12s %s\n", d.id.c_str(), d.default_level.c_str(), checks.c_str(), d.short_description.c_str());
  }
  return kExitClean;
}

int cmd_rule(const std::string& id, const std::string& format) {
  const sc::RuleDoc* d = sc::find_rule_doc(id);
  if (!d) {
    std::cerr << "sparkcheck: unknown rule '" << id << "'; known rules:";
    for (auto& r : sc::rule_docs()) std::cerr << " " << r.id;
    std::cerr << "\n";
    return kExitError;
  }
  if (format == "json") {
    std::cout << nlohmann::ordered_json({{"id", d->id}, {"name", d->name}, {"short", d->short_description},
                                         {"level", d->default_level}, {"markdown", d->markdown}})
                     .dump(2)
              << "\n";
  } else {
    std::cout << d->markdown << "\n";
  }
  return kExitClean;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sparkcheck: catch DGX Spark (GB10) training failure modes G1-G10 before the run"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("sparkcheck ") + sc::tool_version());

  // ---- lint ----
  auto* lint = app.add_subcommand("lint", "Statically check a project (files and directories, default .)");
  std::vector<std::string> paths;
  std::vector<std::string> formats;
  std::string output, color = "auto", stdin_filename;
  bool no_ignore = false;
  std::vector<std::string> select, ignore, exclude;
  double max_mb = 10;
  lint->add_option("paths", paths, "Files or directories to lint");
  lint->add_option("--format,-f", formats,
                   "Output format: text (default), json, sarif; FORMAT:FILE writes that format to FILE (repeatable)");
  lint->add_option("--output,-o", output, "Write the (single) output format to FILE instead of stdout");
  lint->add_flag("--no-ignore", no_ignore, "Do not honour .gitignore files");
  lint->add_option("--select", select, "Only run these rules (G1,G9,...)")->delimiter(',');
  lint->add_option("--ignore", ignore, "Do not run these rules")->delimiter(',');
  lint->add_option("--exclude", exclude, "Skip paths matching this glob (repeatable)");
  lint->add_option("--stdin-filename", stdin_filename, "Lint standard input as if it were this file");
  lint->add_option("--color", color, "Colour: auto, always, never")->check(CLI::IsMember({"auto", "always", "never"}));
  lint->add_option("--max-file-size", max_mb, "Skip files larger than this many MB (default 10)");

  // ---- rules / rule ----
  auto* rules_cmd = app.add_subcommand("rules", "List the rules");
  std::string rules_format = "text";
  rules_cmd->add_option("--format", rules_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  auto* rule_cmd = app.add_subcommand("rule", "Print a rule's documentation");
  std::string rule_id, rule_format = "text";
  rule_cmd->add_option("id", rule_id, "Rule id, e.g. G2")->required();
  rule_cmd->add_option("--format", rule_format, "text (markdown) or json")->check(CLI::IsMember({"text", "json"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitClean : kExitError;
  }

  if (*rules_cmd) return cmd_rules(rules_format);
  if (*rule_cmd) return cmd_rule(rule_id, rule_format);

  // lint
  sc::LintOptions opt;
  opt.paths = paths;
  opt.no_ignore = no_ignore;
  opt.exclude = exclude;
  opt.max_file_bytes = static_cast<size_t>(max_mb * 1e6);
  for (auto& s : select) {
    if (!sc::find_rule_doc(s)) { std::cerr << "sparkcheck: --select: unknown rule '" << s << "'\n"; return kExitError; }
    opt.select.insert(sc::find_rule_doc(s)->id);
  }
  for (auto& s : ignore) {
    if (!sc::find_rule_doc(s)) { std::cerr << "sparkcheck: --ignore: unknown rule '" << s << "'\n"; return kExitError; }
    opt.ignore.insert(sc::find_rule_doc(s)->id);
  }
  if (!stdin_filename.empty()) {
    opt.stdin_text = std::string(std::istreambuf_iterator<char>(std::cin), {});
    opt.stdin_filename = stdin_filename;
  }
  std::vector<FormatSpec> specs;
  if (formats.empty()) formats.push_back("text");
  for (auto& f : formats) {
    FormatSpec s;
    if (!parse_format(f, s)) {
      std::cerr << "sparkcheck: unknown format '" << f << "'; known: " << known_formats() << "\n";
      return kExitError;
    }
    if (s.file.empty() && !output.empty() && formats.size() == 1) s.file = output;
    specs.push_back(s);
  }

  sc::LintResult res = sc::run_lint(opt);

  sc::OutputOptions oo;
  oo.working_directory = res.project.root;
  for (int i = 0; i < argc; ++i) oo.command_line += (i ? " " : "") + std::string(argv[i]);
  for (auto& s : specs) {
    std::ofstream f;
    std::ostream* os = &std::cout;
    if (!s.file.empty()) {
      f.open(s.file);
      if (!f) { std::cerr << "sparkcheck: cannot write " << s.file << "\n"; return kExitError; }
      os = &f;
    }
    oo.color = s.file.empty() && (color == "always" || (color == "auto" && isatty(1) && !getenv("NO_COLOR")));
    sc::output_writers()[s.name](res, *os, oo);
  }
  if (!res.complete) return kExitError;
  for (auto& f : res.findings)
    if (f.suppressions.empty()) return kExitFindings;
  return kExitClean;
}
