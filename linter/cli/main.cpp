// sparkcheck command line. The only translation unit that includes CLI11.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "config/config.h"
#include "core/baseline.h"
#include "core/engine.h"
#include "core/rule_docs.h"
#include "core/suppress.h"
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
  if (!d && sc::canonical_rule_id(id) == sc::kUnusedSuppression) {
    if (format == "json")
      std::cout << nlohmann::ordered_json({{"id", sc::kUnusedSuppression}, {"name", sc::kUnusedSuppression},
                                           {"short", sc::unused_suppression_short()}, {"level", "warning"},
                                           {"markdown", sc::unused_suppression_doc()}})
                       .dump(2)
                << "\n";
    else
      std::cout << sc::unused_suppression_doc();
    return kExitClean;
  }
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

// Finds and reads the configuration for a run; prints the error and returns
// false on a broken configuration.
bool resolve_config(const std::string& explicit_file, bool no_config, const std::string& start, sc::Config& cfg) {
  try {
    if (!explicit_file.empty()) {
      cfg = sc::load_config(explicit_file);
    } else if (!no_config) {
      std::string found = sc::find_config(start);
      if (!found.empty()) cfg = sc::load_config(found);
    }
  } catch (const sc::ConfigError& e) {
    std::cerr << "sparkcheck: " << e.what() << "\n";
    return false;
  }
  if (cfg.base_dir.empty()) {
    std::error_code ec;
    cfg.base_dir = std::filesystem::current_path(ec).generic_string();
  }
  return true;
}

bool canonical_rules(const std::vector<std::string>& in, const char* flag, std::vector<std::string>& out) {
  for (auto& s : in) {
    std::string id = sc::canonical_rule_id(s);
    if (id.empty()) {
      std::cerr << "sparkcheck: " << flag << ": unknown rule '" << s << "'; valid rules: " << sc::known_rule_list() << "\n";
      return false;
    }
    out.push_back(id);
  }
  return true;
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
                   "Output format: text (default), concise, json, sarif, github, junit; FORMAT:FILE writes that format to FILE (repeatable)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  lint->add_option("--output,-o", output, "Write the (single) output format to FILE instead of stdout");
  lint->add_flag("--no-ignore", no_ignore, "Do not honour .gitignore files");
  lint->add_option("--select", select, "Only run these rules (G1,G9,...)")->delimiter(',')->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  lint->add_option("--ignore", ignore, "Do not run these rules")->delimiter(',')->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  lint->add_option("--exclude", exclude, "Skip paths matching this glob (repeatable)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  lint->add_option("--stdin-filename", stdin_filename, "Lint standard input as if it were this file");
  lint->add_option("--color", color, "Colour: auto, always, never")->check(CLI::IsMember({"auto", "always", "never"}));
  lint->add_option("--max-file-size", max_mb, "Skip files larger than this many MB (default 10)");
  std::string config_file, fail_on, baseline_file, write_baseline;
  bool no_config = false, no_inline_ignore = false, show_suppressed = false;
  lint->add_option("--config", config_file, "Read this configuration file instead of searching for one");
  lint->add_flag("--no-config", no_config, "Ignore configuration files (defaults + command line only)");
  lint->add_option("--fail-on", fail_on, "Exit 1 only for findings at or above this level: error, warning, note (default), none")
      ->check(CLI::IsMember({"error", "warning", "note", "none"}));
  lint->add_option("--baseline", baseline_file, "Report only findings that are not in this baseline file");
  lint->add_option("--write-baseline", write_baseline, "Record today's findings in FILE (then exit 0)");
  lint->add_flag("--no-inline-ignore", no_inline_ignore, "Disregard `# sparkcheck: ignore[...]` comments (audit)");
  lint->add_flag("--show-suppressed", show_suppressed, "List suppressed findings too (text and concise formats)");

  // ---- config ----
  auto* config_cmd = app.add_subcommand("config", "Print the effective configuration and where each value comes from");
  std::string cfg_path, cfg_file, cfg_format = "text";
  bool cfg_no_config = false;
  config_cmd->add_option("path", cfg_path, "Look for the configuration from this path upwards (default .)");
  config_cmd->add_option("--config", cfg_file, "Read this configuration file");
  config_cmd->add_flag("--no-config", cfg_no_config, "Show the defaults");
  config_cmd->add_option("--format", cfg_format, "text (YAML with origins) or json")->check(CLI::IsMember({"text", "json"}));

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
  if (*config_cmd) {
    sc::Config cfg;
    if (!resolve_config(cfg_file, cfg_no_config, cfg_path.empty() ? "." : cfg_path, cfg)) return kExitError;
    std::cout << (cfg_format == "json" ? sc::render_config_json(cfg) : sc::render_config_text(cfg));
    return kExitClean;
  }

  // lint: configuration (file, then command line on top)
  sc::Config cfg;
  std::string start = !stdin_filename.empty() ? stdin_filename : paths.empty() ? "." : paths.front();
  if (!resolve_config(config_file, no_config, start, cfg)) return kExitError;
  std::vector<std::string> sel, ign;
  if (!canonical_rules(select, "--select", sel) || !canonical_rules(ignore, "--ignore", ign)) return kExitError;
  if (!sel.empty()) cfg.select = {sel, sc::Origin::cli("--select")};
  if (!ign.empty()) {
    cfg.ignore.value.insert(cfg.ignore.value.end(), ign.begin(), ign.end());
    cfg.ignore.from = sc::Origin::cli("--ignore");
  }
  if (!fail_on.empty()) cfg.fail_on = {fail_on, sc::Origin::cli("--fail-on")};
  if (!baseline_file.empty()) cfg.baseline = {baseline_file, sc::Origin::cli("--baseline")};
  if (no_inline_ignore) cfg.inline_ignore = {false, sc::Origin::cli("--no-inline-ignore")};
  if (no_ignore) cfg.respect_gitignore = {false, sc::Origin::cli("--no-ignore")};
  if (lint->count("--max-file-size")) cfg.max_file_size = {max_mb, sc::Origin::cli("--max-file-size")};

  sc::LintOptions opt;
  opt.paths = paths;
  opt.exclude = exclude;
  sc::apply_config(cfg, opt);
  if (!cfg.baseline.value.empty() && write_baseline.empty()) {
    sc::Baseline bl;
    std::string err;
    if (!sc::load_baseline(cfg.baseline.value, bl, err)) {
      std::cerr << "sparkcheck: " << err << "\n";
      return kExitError;
    }
    opt.baseline = std::move(bl.fingerprints);
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

  if (!write_baseline.empty()) {
    std::ofstream bf(write_baseline);
    if (bf) sc::write_baseline(res, bf);
    if (!bf) { std::cerr << "sparkcheck: cannot write " << write_baseline << "\n"; return kExitError; }
    size_t n = 0;
    for (auto& f : res.findings) n += f.suppressions.empty();
    std::cerr << "sparkcheck: wrote " << n << (n == 1 ? " finding" : " findings") << " to the baseline " << write_baseline
              << "\n";
  }

  sc::OutputOptions oo;
  oo.show_suppressed = show_suppressed;
  if (const char* sum = getenv("GITHUB_STEP_SUMMARY")) oo.summary_file = sum;
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
  if (!res.complete || res.input_error) return kExitError;
  if (!write_baseline.empty()) return kExitClean;
  for (auto& f : res.findings)
    if (f.suppressions.empty() && sc::fails(cfg.fail_on.value, f.level)) return kExitFindings;
  return kExitClean;
}
