// SPDX-License-Identifier: Apache-2.0
// `sparkcheck cluster REPORT.json REPORT.json...`: compares the nodes' probe reports
// (`sparkcheck probe --format json`, docs/probe-report.md) and reports what differs, each
// difference a finding under its G-number with a fix. What is compared, and how, is the
// knowledge table `cluster-drift` (knowledge/cluster.yaml).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sc::cluster {

constexpr size_t kMaxReportBytes = 16u << 20;  // a probe report is tens of KB
constexpr int kMaxDepth = 64;                   // nesting a report may have
constexpr size_t kMaxReadings = 4096;           // readings kept per node

struct ClusterOptions {
  std::vector<std::string> reports;  // files, any order
  std::string format = "text";       // text | json | sarif
  std::string output;                // file, empty = stdout
  size_t max_bytes = kMaxReportBytes;
};

// Exit code: 0 the nodes agree, 1 drift, 2 unreadable input or a usage error.
int run_cluster(const ClusterOptions& opt, std::ostream& out, std::ostream& err);

// ---- the pieces, for tests --------------------------------------------------
struct Reading {
  bool present = false;
  nlohmann::json value;  // when present
  std::string absent;    // why not, when not present
  std::string source;
};

struct Node {
  std::string file;    // the report's path as given
  std::string name;    // its hostname (made unique: "host (file)" when two share one)
  int schema = 1;
  bool legacy = false;  // no node block: only what schema 1 carries
  std::map<std::string, Reading> readings;
};

struct Note {
  std::string file;     // may be empty (about the comparison as a whole)
  std::string id;       // "unreadable-report", "old-schema", "cannot-compare", "bad-reading"
  std::string message;
};

struct Finding {
  std::string rule;     // "G1"
  std::string group;    // "CUDA and driver"
  std::string key;      // "driver.version"
  std::string message;  // names the nodes and their values
  std::string fix;
  std::map<std::string, std::string> values;  // node -> value as shown
};

struct Comparison {
  std::vector<Node> nodes;
  std::vector<Finding> findings;
  std::vector<Note> notes;
  bool unreadable = false;  // some report could not be read (exit 2)
};

// One report from text already read. nullopt (and a note) when it is not a probe report.
std::optional<Node> parse_report(const std::string& text, const std::string& file, std::vector<Note>& notes);
// Reads a file within the size budget (never more than max_bytes read).
std::optional<Node> load_report(const std::string& path, size_t max_bytes, std::vector<Note>& notes);
// Readings computed from others: the chosen NCCL/Gloo interface, the G8 matches.
void add_derived(Node& n);
// Compares the nodes; fills findings and notes.
void compare_nodes(Comparison& c);
// A value as printed ("580.95.05", "sm_90, sm_120", "1500").
std::string show(const nlohmann::json& v);

void write_text(const Comparison& c, std::ostream& out);
void write_json(const Comparison& c, std::ostream& out);
void write_sarif(const Comparison& c, std::ostream& out);

}  // namespace sc::cluster
