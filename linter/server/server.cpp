// SPDX-License-Identifier: Apache-2.0
#include "server/server.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/read_file.h"
#include "output/output.h"
#include "server/client.h"
#include "server/convert.h"
#include "server/lsp_text.h"

namespace sc::lsp {
namespace {
namespace fs = std::filesystem;

std::string normal(const std::string& path) {
  std::string s = fs::path(path).lexically_normal().generic_string();
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool is_under(const std::string& path, const std::string& root) {
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
         (root == "/" || path[root.size()] == '/');
}

// A string member, or "" when absent or of another type (hostile params never throw here).
std::string str(const json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// The absolute path of params.textDocument.uri ("" when it is not a file URI).
std::string doc_path(const json& params) {
  std::string p = uri_to_path(params.at("textDocument").at("uri").get<std::string>());
  return p.empty() || p[0] != '/' ? "" : normal(p);
}

// Whether the file on disk holds exactly `text` (then opening or closing its buffer changes nothing).
bool same_as_disk(const std::string& path, const std::string& text) {
  std::error_code ec;
  if (fs::file_size(path, ec) != text.size() || ec) return false;
  std::string disk, why;
  return read_regular_file(path, disk, why, text.size() + 1, false) && disk == text;
}

Position position_of(const json& j) { return {j.at("line").get<int>(), j.at("character").get<int>()}; }

json capabilities() {
  return {{"positionEncoding", "utf-16"},
          {"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
          {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
          {"hoverProvider", true},
          {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}}};
}

// Workspace roots from initialize: workspaceFolders, else rootUri, else rootPath.
std::vector<std::string> initial_roots(const json& params) {
  std::vector<std::string> roots;
  if (auto it = params.find("workspaceFolders"); it != params.end() && it->is_array())
    for (const json& f : *it)
      if (std::string p = uri_to_path(str(f, "uri")); !p.empty() && p[0] == '/') roots.push_back(normal(p));
  if (roots.empty())
    if (std::string p = uri_to_path(str(params, "rootUri")); !p.empty() && p[0] == '/') roots.push_back(normal(p));
  if (roots.empty())
    if (std::string p = str(params, "rootPath"); !p.empty() && p[0] == '/') roots.push_back(normal(p));
  return roots;
}

using Clock = std::chrono::steady_clock;

class Server {
 public:
  explicit Server(Channel& ch) : ch_(ch) {}
  int run();

 private:
  Channel& ch_;
  bool initialized_ = false, shutdown_ = false, exit_ = false, dirty_ = false;
  ServerOptions options_;
  bool watch_ = false;  // the client takes a dynamic registration of file watchers
  int next_id_ = 1;     // of our requests to the client
  Clock::time_point first_change_, last_change_;  // since the last lint
  std::vector<std::string> roots_;
  std::map<std::string, std::string> docs_;  // absolute path -> open buffer
  std::vector<Workspace> spaces_;
  std::map<std::string, json> published_;  // uri -> diagnostics last sent
  std::set<std::string> shown_errors_;

  void dispatch(const json& msg);
  void request(const json& id, const std::string& method, const json& params);
  json answer(const std::string& method, const json& params);
  void notify(const std::string& method, const json& params);
  void change(const json& params);
  void mark_dirty(bool at_once = false);
  bool input_before_lint();
  void watched(const json& params);
  void client_request(const std::string& method, json params);
  bool inside_root(const std::string& path) const;
  void add_root(const std::string& path);
  void folders(const json& params);
  void relint();
  void keep_parsed(Workspace& ws) const;
  void publish();
  void show_error(const std::string& message);
  void log(const std::string& message);
  // The workspace linting `path` and the path's display form there; null when none.
  const Workspace* owner(const std::string& path, std::string& display) const;
  json code_action(const json& params);
  json hover(const json& params);
};

int Server::run() {
  std::string body, why;
  while (!exit_) {
    if (dirty_ && initialized_ && !shutdown_ && !input_before_lint()) relint();
    Channel::Got got = ch_.read(body, why);
    if (got == Channel::Got::End) break;
    if (got == Channel::Got::Bad) {
      ch_.send(error_response(nullptr, kInvalidRequest, "bad message framing: " + why));
      continue;
    }
    json msg = json::parse(body, nullptr, false);
    if (msg.is_discarded()) {
      ch_.send(error_response(nullptr, kParseError, "message body is not valid JSON"));
      continue;
    }
    dispatch(msg);
  }
  return exit_ && shutdown_ ? 0 : 1;
}

void Server::dispatch(const json& msg) {
  if (!msg.is_object() || !msg.contains("method") || !msg["method"].is_string()) {
    // a response to a request of ours (we send none that need one) or garbage
    if (msg.is_object() && (msg.contains("result") || msg.contains("error"))) return;
    json id = msg.is_object() && msg.contains("id") ? msg["id"] : json(nullptr);
    ch_.send(error_response(id, kInvalidRequest, "not a JSON-RPC request or notification"));
    return;
  }
  std::string method = msg["method"].get<std::string>();
  json params = msg.contains("params") ? msg["params"] : json::object();
  if (msg.contains("id")) {
    const json& id = msg["id"];
    if (!id.is_string() && !id.is_number_integer()) {
      ch_.send(error_response(nullptr, kInvalidRequest, "request id must be an integer or a string"));
      return;
    }
    request(id, method, params);
    return;
  }
  try {
    notify(method, params);
  } catch (const std::exception& e) {
    log("ignored " + method + ": " + e.what());
  }
}

void Server::request(const json& id, const std::string& method, const json& params) {
  if (!initialized_ && method != "initialize") {
    ch_.send(error_response(id, kServerNotInitialized, "initialize first"));
    return;
  }
  if (shutdown_ || (initialized_ && method == "initialize")) {
    ch_.send(error_response(id, kInvalidRequest, shutdown_ ? "the server is shutting down" : "already initialized"));
    return;
  }
  try {
    json result = answer(method, params);
    if (result.is_discarded()) ch_.send(error_response(id, kMethodNotFound, "unknown method " + method));
    else ch_.send(response(id, std::move(result)));
  } catch (const json::exception& e) {
    ch_.send(error_response(id, kInvalidParams, "bad params for " + method + ": " + e.what()));
  } catch (const std::exception& e) {
    ch_.send(error_response(id, kInternalError, method + " failed: " + e.what()));
  }
}

// The result of a request; a discarded value for an unknown method.
json Server::answer(const std::string& method, const json& params) {
  if (method == "initialize") {
    for (const std::string& r : initial_roots(params)) add_root(r);
    if (auto o = params.find("initializationOptions"); o != params.end()) read_options(*o, options_);
    if (auto c = params.find("capabilities"); c != params.end()) watch_ = can_watch(*c);
    initialized_ = true;
    return {{"capabilities", capabilities()}, {"serverInfo", {{"name", "sparkcheck"}, {"version", tool_version()}}}};
  }
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  if (method == "textDocument/codeAction") return code_action(params);
  if (method == "textDocument/hover") return hover(params);
  return json(json::value_t::discarded);
}

void Server::notify(const std::string& method, const json& params) {
  if (method == "exit") {
    exit_ = true;
    return;
  }
  if (!initialized_) return;
  if (method == "initialized") {
    if (watch_) client_request("client/registerCapability", watcher_registration());
    mark_dirty(true);
  } else if (method == "workspace/didChangeWatchedFiles") {
    watched(params);
  } else if (method == "workspace/didChangeConfiguration") {
    read_options(params.value("settings", json()), options_);
    mark_dirty();  // the configuration files are read again by the next lint
  } else if (method == "textDocument/didOpen") {
    std::string path = doc_path(params);
    if (path.empty()) return;
    std::string& text = docs_[path] = params.at("textDocument").at("text").get<std::string>();
    // a file inside a workspace opened as it is on disk: the last lint stands
    if (spaces_.empty() || !same_as_disk(path, text) || !inside_root(path)) mark_dirty();
  } else if (method == "textDocument/didChange") {
    change(params);
  } else if (method == "textDocument/didClose") {
    auto it = docs_.find(doc_path(params));
    if (it == docs_.end()) return;
    if (!same_as_disk(it->first, it->second) || !inside_root(it->first)) mark_dirty();
    docs_.erase(it);
  } else if (method == "textDocument/didSave") {
    std::string path = doc_path(params);
    if (params.contains("text") && params["text"].is_string() && docs_.count(path)) docs_[path] = params["text"];
    mark_dirty();  // on save, files changed by other programs are read again too
  } else if (method == "workspace/didChangeWorkspaceFolders") {
    folders(params);
  }
}

// Full-document changes (what we ask for); ranged ones are applied too, in order.
void Server::change(const json& params) {
  std::string path = doc_path(params);
  auto it = docs_.find(path);
  if (it == docs_.end()) return;
  for (const json& c : params.at("contentChanges")) {
    std::string text = c.at("text").get<std::string>();
    if (!c.contains("range")) {
      it->second = std::move(text);
      continue;
    }
    const json& r = c.at("range");
    replace_range(it->second, position_of(r.at("start")), position_of(r.at("end")), text);
  }
  mark_dirty();
}

// Edits come in bursts (typing): the lint waits until the input has been quiet for the
// debounce time, and at most kMaxDelay after the first unlinted change. `at_once`: no wait.
void Server::mark_dirty(bool at_once) {
  Clock::time_point now = Clock::now();
  if (!dirty_ || at_once) first_change_ = at_once ? now - std::chrono::hours(1) : now;
  last_change_ = at_once ? first_change_ : now;
  dirty_ = true;
}

// Whether a message comes in before the pending lint is due.
bool Server::input_before_lint() {
  if (options_.debounce_ms <= 0) return ch_.pending();
  constexpr auto kMaxDelay = std::chrono::milliseconds(1000);
  auto quiet = std::chrono::milliseconds(options_.debounce_ms);
  Clock::time_point due = std::min(last_change_ + quiet, first_change_ + std::max(quiet, kMaxDelay));
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count();
  return ch_.wait(static_cast<int>(std::max<long long>(left, 0)));
}

// Files created, changed or deleted outside the editor: read again from the disk (an open
// buffer still stands for its file).
void Server::watched(const json& params) {
  for (const std::string& path : changed_paths(params)) {
    for (auto& ws : spaces_) ws.parsed->entries.erase(path);
    if (!docs_.count(path)) mark_dirty();
  }
}

void Server::client_request(const std::string& method, json params) {
  ch_.send({{"jsonrpc", "2.0"}, {"id", "sparkcheck-" + std::to_string(next_id_++)}, {"method", method},
            {"params", std::move(params)}});
}

// Each folder once (a folder inside another is skipped by relint: linted with the outer one).
void Server::add_root(const std::string& path) {
  if (path.empty() || path[0] != '/' || std::find(roots_.begin(), roots_.end(), path) != roots_.end()) return;
  roots_.push_back(path);
}

void Server::folders(const json& params) {
  const json& ev = params.at("event");
  for (const json& f : ev.at("removed")) std::erase(roots_, normal(uri_to_path(str(f, "uri"))));
  for (const json& f : ev.at("added"))
    if (std::string p = uri_to_path(str(f, "uri")); !p.empty() && p[0] == '/') add_root(normal(p));
  mark_dirty(true);
}

bool Server::inside_root(const std::string& path) const {
  for (const auto& r : roots_)
    if (is_under(path, r)) return true;
  return false;
}

// The same workspace's parsed files from the last lint carry over to the next.
void Server::keep_parsed(Workspace& ws) const {
  for (const auto& old : spaces_)
    if (old.root == ws.root && old.only_file == ws.only_file) ws.parsed = old.parsed;
}

void Server::relint() {
  auto t0 = std::chrono::steady_clock::now();
  dirty_ = false;
  std::vector<Workspace> next;
  for (const auto& r : roots_)
    if (!inside_root(r)) next.push_back({r, "", {}, ""});  // a folder inside another is linted with it
  for (const auto& [path, text] : docs_)
    if (!inside_root(path)) next.push_back({fs::path(path).parent_path().generic_string(), path, {}, ""});
  size_t files = 0, parsed = 0;
  for (auto& ws : next) {
    keep_parsed(ws);
    lint_workspace(ws, docs_);
    files += ws.result.files_linted;
    parsed += ws.parsed->misses;
    if (!ws.config_error.empty()) show_error(ws.config_error + " (linting with the defaults)");
  }
  spaces_ = std::move(next);
  publish();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  char buf[128];
  std::snprintf(buf, sizeof buf, "linted %zu files in %.1f ms (%zu parsed, the rest unchanged)", files, ms, parsed);
  log(buf);
}

void Server::publish() {
  std::map<std::string, json> now;
  for (const auto& ws : spaces_) {
    const Project& p = ws.result.project;
    for (const Finding& f : ws.result.findings)
      if (f.suppressions.empty()) now[uri_of(p, f.loc.path)].push_back(to_diagnostic(p, f));
    for (const Notification& n : ws.result.notifications)
      if (!n.path.empty()) now[uri_of(p, n.path)].push_back(to_diagnostic(p, n));
  }
  for (auto& [uri, diags] : now)
    if (published_[uri] != diags) ch_.send(notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", diags}}));
  for (auto& [uri, old] : published_)
    if (!now.count(uri) && !old.empty())
      ch_.send(notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}}));
  published_ = std::move(now);
}

void Server::show_error(const std::string& message) {
  if (!shown_errors_.insert(message).second) return;
  ch_.send(notification("window/showMessage", {{"type", 1}, {"message", "sparkcheck: " + message}}));
}

void Server::log(const std::string& message) {
  ch_.send(notification("window/logMessage", {{"type", 4}, {"message", "sparkcheck: " + message}}));
}

const Workspace* Server::owner(const std::string& path, std::string& display) const {
  for (const auto& ws : spaces_) {
    const Project& p = ws.result.project;
    std::string d = is_under(path, p.root) ? path.substr(p.root.size() + (p.root == "/" ? 0 : 1)) : path;
    if (p.find(d)) {
      display = d;
      return &ws;
    }
  }
  return nullptr;
}

}  // namespace

namespace {

// Does the finding's line span meet lines [first, last] (0-based)?
bool on_lines(const Finding& f, int first, int last) {
  int s = f.loc.range.line - 1, e = std::max(f.loc.range.end_line, f.loc.range.line) - 1;
  return s <= last && e >= first;
}

bool contains(const json& range, Position p) {
  Position s = position_of(range.at("start")), e = position_of(range.at("end"));
  if (p.line < s.line || p.line > e.line) return false;
  if (p.line == s.line && p.character < s.character) return false;
  return !(p.line == e.line && p.character > e.character);
}

}  // namespace

json Server::code_action(const json& params) {
  if (dirty_) relint();
  json out = json::array();
  std::string display;
  const Workspace* ws = owner(doc_path(params), display);
  if (!ws) return out;
  const json& r = params.at("range");
  int first = position_of(r.at("start")).line, last = position_of(r.at("end")).line;
  const Project& p = ws->result.project;
  for (const Finding& f : ws->result.findings) {
    if (f.loc.path != display || !f.suppressions.empty() || !on_lines(f, first, last)) continue;
    for (json& a : code_actions(p, f, to_diagnostic(p, f))) out.push_back(std::move(a));
  }
  return out;
}

json Server::hover(const json& params) {
  if (dirty_) relint();
  std::string display;
  const Workspace* ws = owner(doc_path(params), display);
  if (!ws) return nullptr;
  Position at = position_of(params.at("position"));
  const Project& p = ws->result.project;
  std::string md;
  json range;
  std::set<std::string> documented;
  for (const Finding& f : ws->result.findings) {
    if (f.loc.path != display || !f.suppressions.empty()) continue;
    json fr = lsp_range(p, f.loc);
    if (!contains(fr, at)) continue;
    if (range.is_null()) range = fr;
    md += (md.empty() ? "" : "\n---\n\n") + hover_markdown(f, documented.insert(f.rule).second);
  }
  if (md.empty()) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", md}}}, {"range", range}};
}

int serve(int in_fd, int out_fd) {
  std::signal(SIGPIPE, SIG_IGN);  // a client that goes away ends the loop through a failed write/read
  Channel ch(in_fd, out_fd);
  Server s(ch);
  return s.run();
}

}  // namespace sc::lsp
