// SPDX-License-Identifier: Apache-2.0
// Commands and assignments that name a container image become Image facts, as
// a FROM line does: `docker run/pull/create`, `podman run/pull/create`,
// `enroot import docker://...`, `srun --container-image=...`, and `IMAGE=` /
// `*_IMAGE=` assignments. Dockerfiles keep one Image per stage, so their RUN
// commands are left out.
#include <cstring>
#include <optional>
#include <set>

#include "core/registry.h"
#include "core/path_names.h"

namespace sc {
namespace {


// docker/podman options of run/create/pull that take a separate value.
bool takes_value(const std::string& opt) {
  static const std::set<std::string> v = {
      "-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "--gpus", "--network", "--net", "--ipc",
      "--ulimit", "-w", "--workdir", "--shm-size", "--runtime", "--entrypoint", "--device", "--mount",
      "--env-file", "-u", "--user", "--platform", "--label", "-l", "--hostname", "-h", "--cpus", "--memory",
      "-m", "--restart", "--add-host", "--cap-add", "--cap-drop", "--security-opt", "--volumes-from", "--pull",
      "--log-driver", "--log-opt", "--tmpfs", "--group-add", "--pid", "--uts", "--userns", "--cgroupns",
      "--stop-signal", "--dns", "--expose", "--link", "--memory-swap", "--cpuset-cpus", "--health-cmd",
      "--label-file", "--cidfile", "--init-path", "--stop-timeout", "--pids-limit", "-a", "--attach",
      "--device-cgroup-rule", "--ip", "--mac-address", "--annotation", "--hooks-dir", "--secret", "--arch",
      "--os", "--variant", "--creds", "--authfile", "--cgroup-parent", "--storage-opt", "--sysctl"};
  return v.count(opt) > 0;
}

bool looks_like_image(const std::string& s) {
  if (s.empty() || s[0] == '-' || s.find_first_of(" \t=") != std::string::npos) return false;
  return s.find(':') != std::string::npos || s.find('/') != std::string::npos || s.find('$') != std::string::npos;
}

void push_image(FileFacts& f, std::string ref, int stage, const Location& loc) {
  Image im;
  im.ref = std::move(ref);
  im.stage = stage;
  im.loc = loc;
  f.images.push_back(std::move(im));
}

// The image a docker command names: a new one, with a stage of its own (its index) so the
// command run in it can name it; or, for `docker run $IMG` after `docker pull $IMG`, the one
// that command already added. Null when the word is not resolved.
const Image* add(FileFacts& f, const Word& w, const Command& c, size_t from_env) {
  if (!w.resolved) return nullptr;
  if (w.raw.find('$') != std::string::npos)
    for (size_t i = from_env; i < f.images.size(); ++i)
      if (f.images[i].ref == w.text) return &f.images[i];
  push_image(f, w.text, c.stage >= 0 ? c.stage : static_cast<int>(f.images.size()), w.loc);
  return &f.images.back();
}

// `--entrypoint PROG` / `--entrypoint=PROG` among the options before the image (argv index
// `image`): PROG as a word of its own. Null when absent or reset with "".
std::optional<Word> entrypoint(const Command& c, size_t image) {
  std::optional<Word> ep;
  for (size_t i = 0; i < image; ++i) {
    const Word& w = c.argv[i];
    if (w.text == "--entrypoint" && i + 1 < image) {
      ep = c.argv[++i];
    } else if (starts_with(w.text, "--entrypoint=")) {
      ep = w;
      ep->text.erase(0, std::strlen("--entrypoint="));
      ep->loc.range.col += static_cast<int>(w.raw.find('=') + 1);
    }
  }
  if (ep && ep->text.empty()) ep.reset();
  return ep;
}

// `docker run [--entrypoint PROG] IMAGE cmd args...`: [PROG] cmd args, as a command run in
// the image's stage. Without --entrypoint, the image's own entrypoint (if any) takes the
// words: the query layer knows which images have one (query::entrypoint_launch).
std::optional<Command> container_command(const Command& c, size_t image, int stage) {
  Command in;
  if (auto ep = entrypoint(c, image)) in.argv.push_back(std::move(*ep));
  in.argv.insert(in.argv.end(), c.argv.begin() + static_cast<long>(image) + 1, c.argv.end());
  if (in.argv.empty()) return std::nullopt;
  in.stage = stage;
  in.context = CommandContext::Container;
  in.loc = in.argv.front().loc;
  return in;
}

// `${HF_TOKEN:+-e HF_TOKEN="$HF_TOKEN"}`: options given only when a variable is set.
bool optional_options(const Word& w) {
  if (w.resolved && w.text.empty()) return true;
  std::string_view r = w.raw;
  if (r.size() > 2 && r.front() == '"' && r.back() == '"') r = r.substr(1, r.size() - 2);
  size_t alt = r.find(":+");
  return starts_with(r, "${") && alt != std::string_view::npos && alt + 2 < r.size() && r[alt + 2] == '-' &&
         r.find('}') > alt;
}

// Index of the word after `argv[0] [sudo] docker run ...` options, or 0.
size_t image_arg(const Command& c) {
  const auto& a = c.argv;
  size_t i = 0;
  while (i < a.size() && (base_name(a[i].text) == "sudo" || base_name(a[i].text) == "time" || base_name(a[i].text) == "exec")) ++i;
  if (i + 1 >= a.size()) return 0;
  std::string prog = base_name(a[i].text);
  if (prog == "docker" || prog == "podman" || prog == "nerdctl" || prog == "nvidia-docker") {
    size_t k = i + 1;
    if (k < a.size() && a[k].text == "container") ++k;
    if (k < a.size() && a[k].text == "image") ++k;
    if (k >= a.size()) return 0;
    std::string sub = a[k].text;
    if (sub != "run" && sub != "create" && sub != "pull") return 0;
    for (++k; k < a.size(); ++k) {
      const std::string& t = a[k].text;
      if (t == "--" || optional_options(a[k])) continue;
      if (!starts_with(t, "-")) return looks_like_image(t) ? k : 0;
      if (t.find('=') == std::string::npos && takes_value(t)) ++k;
    }
    return 0;
  }
  if (prog == "enroot" && a[i + 1].text == "import") {
    for (size_t k = i + 2; k < a.size(); ++k)
      if (starts_with(a[k].text, "docker://")) return k;
    return 0;
  }
  return 0;
}

bool within(const Range& r, const Range& outer) {
  auto before = [](int l1, int c1, int l2, int c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
  return before(outer.line, outer.col, r.line, r.col) && before(r.end_line, r.end_col, outer.end_line, outer.end_col);
}

bool shell_program(const std::string& p) {
  std::string b = base_name(p);
  return b == "bash" || b == "sh" || b == "zsh" || b == "dash";
}

// `docker run IMAGE bash -c '...'`: the `-c` string's word, read as a script of its own by
// the shell parser; null when the container runs no shell string.
const Word* shell_payload(const Command& c, size_t from) {
  for (size_t i = from; i < c.argv.size(); ++i) {
    if (!shell_program(c.argv[i].text)) continue;
    for (size_t j = i + 1; j + 1 < c.argv.size(); ++j) {
      const std::string& a = c.argv[j].text;
      if (a.size() >= 2 && a[0] == '-' && a[1] != '-' && a.find('c') != std::string::npos) return &c.argv[j + 1];
      if (a.empty() || a[0] != '-') return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

// The commands parsed from inside `payload` run in image stage `stage`.
void run_payload_in(FileFacts& f, const Range& payload, int stage) {
  for (Command& c : f.commands)
    if (c.stage < 0 && c.loc.range.valid() && within(c.loc.range, payload) && c.loc.range != payload) {
      c.stage = stage;
      c.context = CommandContext::Container;
    }
}

// A command the document runs inside its container (a Markdown step after `docker run -it
// IMAGE`, or under `# inside the container`, marked Container by the Markdown parser): the
// stage of the last image named before it, else of the first one after it.
void latest_image_stage(FileFacts& f) {
  for (Command& c : f.commands) {
    if (c.context != CommandContext::Container || c.stage >= 0) continue;
    const Image *last = nullptr, *next = nullptr;
    for (const Image& im : f.images) {
      if (im.stage < 0) continue;
      int l = im.loc.range.line;
      if (l <= c.loc.range.line && (!last || l >= last->loc.range.line)) last = &im;
      if (l > c.loc.range.line && (!next || l < next->loc.range.line)) next = &im;
    }
    if (const Image* im = last ? last : next) c.stage = im->stage;
    else c.context = CommandContext::Markdown;
  }
}

// `pip install`, `pip3 install`, `uv pip install`, `python -m pip install` (after `sudo`).
bool pip_install(const Command& c) {
  const auto& a = c.argv;
  size_t i = 0;
  while (i < a.size() && base_name(a[i].text) == "sudo") ++i;
  auto word = [&](size_t k, const char* w) { return i + k < a.size() && a[i + k].text == w; };
  if (i >= a.size()) return false;
  std::string p = base_name(a[i].text);
  if (p == "pip" || p == "pip3") return word(1, "install");
  if (p == "uv") return word(1, "pip") && word(2, "install");
  return starts_with(p, "python") && word(1, "-m") && word(2, "pip") && word(3, "install");
}

// A command that makes or enters a Python environment of its own (venv, virtualenv, uv venv,
// conda/mamba create or activate, `source …/bin/activate`).
bool makes_env(const Command& c) {
  const auto& a = c.argv;
  if (a.empty()) return false;
  std::string p = base_name(a[0].text);
  auto arg = [&](size_t k) { return k < a.size() ? a[k].text : std::string(); };
  if (makes_venv(c)) return true;
  if (p == "conda" || p == "mamba" || p == "micromamba")
    return arg(1) == "create" || arg(1) == "activate" || (arg(1) == "env" && arg(2) == "create");
  return (p == "source" || p == ".") && ends_with(arg(1), "bin/activate");
}

// The heading `line` is under says its steps run outside a container.
bool host_heading(const FileFacts& f, int line) {
  const Section* under = nullptr;
  for (const Section& s : f.sections)
    if (s.line <= line) under = &s;
  if (!under) return false;
  std::string t = lower(under->title);
  for (const char* w : {"host", "bare metal", "bare-metal", "native", "without docker", "without a container",
                        "outside", "venv", "virtual env", "conda", "local install"})
    if (t.find(w) != std::string::npos) return true;
  return false;
}

// The one image a Markdown document opens as the reader's shell, when every image it names is
// that one; null otherwise.
const Image* only_opened_image(const FileFacts& f) {
  const Image* opened = nullptr;
  for (const Command& c : f.commands) {
    if (c.context != CommandContext::Container || c.stage < 0) continue;
    for (const Image& im : f.images)
      if (im.stage == c.stage) opened = &im;
  }
  if (!opened) return nullptr;
  for (const Image& im : f.images)
    if (im.ref != opened->ref) return nullptr;
  return opened;
}

// A document whose only image is one it opens for the reader (`docker run -it IMAGE`, then
// steps inside) is written for a reader in that container: its pip installs outside the
// marked steps run there too, unless it also makes a Python environment or a heading says
// the step is on the host. They get the Container context; latest_image_stage places them.
void document_container(FileFacts& f) {
  if (!only_opened_image(f)) return;
  for (const Command& c : f.commands)
    if (makes_env(c)) return;
  for (Command& c : f.commands)
    if (c.context == CommandContext::Markdown && c.stage < 0 && pip_install(c) && !host_heading(f, c.loc.range.line))
      c.context = CommandContext::Container;
}

void image_commands(FileFacts& f) {
  if (f.kind == FileKind::Dockerfile) return;
  size_t from_env = f.images.size();
  for (const EnvSetting& e : f.env) {
    if (e.origin != EnvOrigin::Export && e.origin != EnvOrigin::Assign && e.origin != EnvOrigin::Yaml) continue;
    if (e.name != "IMAGE" && !ends_with(e.name, "_IMAGE")) continue;
    if (!looks_like_image(e.value) || e.value.find('$') != std::string::npos) continue;
    // a stage of its own, as `add` gives, so a `docker run "$IMAGE" bash -c ...` naming it runs there
    push_image(f, e.value, e.stage >= 0 ? e.stage : static_cast<int>(f.images.size()), e.loc);
  }
  std::vector<Command> in_containers;
  std::vector<std::pair<Range, int>> payloads;  // `bash -c` strings run in an image stage
  for (const Command& c : f.commands) {
    if (size_t k = image_arg(c); k > 0) {
      Word w = c.argv[k];
      if (starts_with(w.text, "docker://")) w.text = w.text.substr(9);
      if (size_t h = w.text.find('#'); h != std::string::npos) w.text[h] = '/';  // enroot: registry#image
      const Image* im = add(f, w, c, from_env);
      if (auto in = im ? container_command(c, k, im->stage) : std::nullopt) {
        if (const Word* payload = shell_payload(*in, 0)) payloads.emplace_back(payload->loc.range, im->stage);
        in_containers.push_back(std::move(*in));
      }
      continue;
    }
    if (c.argv.empty() || base_name(c.argv[0].text) != "srun") continue;
    for (size_t k = 1; k < c.argv.size(); ++k) {
      Word w = c.argv[k];
      const std::string flag = "--container-image";
      if (w.text == flag && k + 1 < c.argv.size()) w = c.argv[k + 1];
      else if (starts_with(w.text, flag + "=")) w.text = w.text.substr(flag.size() + 1);
      else continue;
      if (looks_like_image(w.text)) add(f, w, c, from_env);
      break;
    }
  }
  for (auto& [where, stage] : payloads) run_payload_in(f, where, stage);
  if (f.kind == FileKind::Markdown) {
    latest_image_stage(f);
    document_container(f);
    latest_image_stage(f);
  }
  for (Command& c : in_containers) f.commands.push_back(std::move(c));
}

}  // namespace

SPARKCHECK_POST_PARSE(image_commands);

}  // namespace sc
