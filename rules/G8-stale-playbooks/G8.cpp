// SPDX-License-Identifier: Apache-2.0
// G8 (lint): a file installs a version combination, or writes a setting, that
// knowledge/versions.yaml `broken-combinations` records as broken on a DGX Spark; the
// probe's G8 checks the same table against what a machine has installed.
#include "core/registry.h"
#include "knowledge/versions.h"
#include "query/finding.h"
#include "query/packages.h"
#include "query/project.h"

namespace sc {
namespace {

using knowledge::Entry;
using query::finding;

std::string reported(const Entry& e) { return e.get("symptom") + " (" + e.get("report") + ")"; }

// `package` pinned exactly inside the range, with `with` installed in the same environment.
void combos_in(const PkgEnv& env, const Entry& e, Reporter& out) {
  std::vector<query::InstalledPackage> pkgs = query::packages_in(env);
  const query::InstalledPackage* with = nullptr;
  for (const auto& ip : pkgs)
    if (ip.req->name == e.get("with")) with = &ip;
  if (!with) return;
  for (const auto& ip : pkgs) {
    const Requirement& r = *ip.req;
    if (r.name != e.get("package") || !knowledge::version_in_range(e, r.exact_version)) continue;
    out.report(finding(Level::Warning, r.loc,
                       r.name + " " + r.exact_version + " installed with " + e.get("with") +
                           " is a combination known to break on a DGX Spark: " + reported(e),
                       "pin another " + r.name + " release (the report names the versions that work)",
                       {{with->req->loc, e.get("with") + " installed here"}}));
  }
}

void settings_in(const ParsedFile& f, const Entry& e, Reporter& out) {
  auto check = [&](const std::string& name, const std::string& value, const Location& loc) {
    if (name == e.get("env") && value == e.get("value"))
      out.report(finding(Level::Warning, loc, name + "=" + value + " is known to break on a DGX Spark: " + reported(e)));
  };
  for (const EnvSetting& s : f.facts->env) check(s.name, s.value, s.loc);
  for (const Command& c : f.facts->commands)
    for (const auto& [name, w] : c.env) check(name, w.text, w.loc);
}

class G8 : public Rule {
 public:
  std::string_view id() const override { return "G8"; }
  void check(const Project& p, Reporter& out) const override {
    for (const Entry& e : knowledge::table("broken-combinations").entries) {
      if (!e.get("runtime").empty()) continue;
      if (!e.get("env").empty())
        for (const auto& f : p.files) settings_in(*f, e, out);
      else
        for (const PkgEnv& env : query::environments(p)) combos_in(env, e, out);
    }
  }
};

}  // namespace

SPARKCHECK_RULE(G8);

}  // namespace sc
