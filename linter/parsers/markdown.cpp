// SPDX-License-Identifier: Apache-2.0
// Markdown (CommonMark, libcmark): the code blocks of a README are parsed as
// the file kinds their info strings name (```bash, ```dockerfile, ```yaml...),
// untagged and indented blocks only when their first line is a command (or a
// comment or assignment followed by one). Prose is never read. Shell blocks share
// variables in document order, so an `export TP=2` block feeds a later
// `--tensor-parallel-size $TP`. After an interactive `docker run -it IMAGE` the
// steps run inside that container (Container commands; image_commands gives them
// its stage) until `exit`, the next docker command, or a heading that closes the
// section the container was opened in (the next numbered step at the same level does not).
#include <cmark.h>

#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "parsers/config.h"
#include "parsers/embedded.h"
#include "parsers/shell.h"

namespace sc {
namespace {

struct Block {
  int heading = 0;    // a heading of this level (no code), 0 for a code block
  std::string lang;   // lower-case first word of the info string, "" when untagged
  int first_line = 0; // real line of the block's first content line
  std::string title;  // a heading's text
  std::vector<std::string> lines;
};

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> v = split(s, '\n');
  if (!v.empty() && v.back().empty()) v.pop_back();
  return v;
}

// The text of a heading: its text and inline code, emphasis removed; at most 200 bytes.
std::string heading_text(cmark_node* h) {
  std::string t;
  std::unique_ptr<cmark_iter, void (*)(cmark_iter*)> it(cmark_iter_new(h), cmark_iter_free);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it.get())) != CMARK_EVENT_DONE && t.size() < 200) {
    cmark_node* n = cmark_iter_get_node(it.get());
    cmark_node_type k = cmark_node_get_type(n);
    if (ev == CMARK_EVENT_ENTER && (k == CMARK_NODE_TEXT || k == CMARK_NODE_CODE))
      if (const char* l = cmark_node_get_literal(n)) t += l;
  }
  return t.substr(0, 200);
}

// A paragraph of the document whose first line is all bold (`**x86 build**`, up to 100 bytes,
// maybe a ":" after it, maybe more lines of text below) labels the text after it like a
// heading one level below any real one (level 7).
bool bold_label(cmark_node* n) {
  if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH) return false;
  cmark_node* parent = cmark_node_parent(n);
  if (!parent || cmark_node_get_type(parent) != CMARK_NODE_DOCUMENT) return false;
  cmark_node* first = cmark_node_first_child(n);
  if (!first || cmark_node_get_type(first) != CMARK_NODE_STRONG) return false;
  auto line_end = [](cmark_node* x) {
    return !x || cmark_node_get_type(x) == CMARK_NODE_SOFTBREAK || cmark_node_get_type(x) == CMARK_NODE_LINEBREAK;
  };
  cmark_node* next = cmark_node_next(first);  // at most a trailing ":" after it on its line
  if (!line_end(next)) {
    const char* tail = cmark_node_get_type(next) == CMARK_NODE_TEXT ? cmark_node_get_literal(next) : nullptr;
    if (!tail || trim(tail).size() > 1 || !line_end(cmark_node_next(next))) return false;
  }
  return heading_text(first).size() <= 100;
}

std::vector<Block> code_blocks(const std::string& text) {
  std::vector<Block> out;
  std::unique_ptr<cmark_node, void (*)(cmark_node*)> doc(
      cmark_parse_document(text.data(), text.size(), CMARK_OPT_DEFAULT), cmark_node_free);
  if (!doc) return out;
  std::unique_ptr<cmark_iter, void (*)(cmark_iter*)> it(cmark_iter_new(doc.get()), cmark_iter_free);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it.get())) != CMARK_EVENT_DONE) {
    cmark_node* n = cmark_iter_get_node(it.get());
    if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(n) == CMARK_NODE_HEADING) {
      Block h;
      h.heading = std::max(1, cmark_node_get_heading_level(n));
      h.first_line = cmark_node_get_start_line(n);
      h.title = heading_text(n);
      out.push_back(std::move(h));
      continue;
    }
    if (ev == CMARK_EVENT_ENTER && bold_label(n)) {
      Block h;
      h.heading = 7;
      h.first_line = cmark_node_get_start_line(n);
      h.title = heading_text(cmark_node_first_child(n));  // the bold words, not the lines below
      out.push_back(std::move(h));
      continue;
    }
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_CODE_BLOCK) continue;
    Block b;
    const char* info = cmark_node_get_fence_info(n);
    const char* lit = cmark_node_get_literal(n);
    std::string i = info ? trim(info) : std::string();
    while (!i.empty() && (i[0] == '{' || i[0] == '.')) i.erase(0, 1);  // ```{.bash}
    b.lang = lower(i.substr(0, i.find_first_of(" \t{},")));
    b.lines = split_lines(lit ? lit : "");
    out.push_back(std::move(b));
    out.back().first_line = cmark_node_get_start_line(n);
  }
  return out;
}

// Fenced or indented: cmark reports both as code blocks; a fenced one has its
// fence on the start line, so its content starts one line later.
bool fence_line(std::string_view l) {
  std::string t = trim(l);
  while (starts_with(t, ">")) t = trim(std::string_view(t).substr(1));
  if (!t.empty() && (t[0] == '-' || t[0] == '*' || t[0] == '+')) t = trim(std::string_view(t).substr(1));
  size_t d = 0;
  while (d < t.size() && std::isdigit(static_cast<unsigned char>(t[d]))) ++d;
  if (d > 0 && d < t.size() && (t[d] == '.' || t[d] == ')')) t = trim(std::string_view(t).substr(d + 1));
  return starts_with(t, "```") || starts_with(t, "~~~");
}

std::string first_word(std::string_view l) {
  std::string t = trim(l);
  if (starts_with(t, "$ ") || starts_with(t, "# ")) t = trim(std::string_view(t).substr(2));
  if (starts_with(t, "sudo ")) t = trim(std::string_view(t).substr(5));
  return t.substr(0, t.find_first_of(" \t"));
}

std::string program_name(const std::string& p) {
  size_t k = p.rfind('/');
  return k == std::string::npos ? p : p.substr(k + 1);
}

// `IMAGE=nvcr.io/...` / `export HF_TOKEN=...`: a shell assignment line.
bool assignment_line(std::string_view t) {
  if (starts_with(t, "export ")) t = t.substr(7);
  size_t n = 0;
  while (n < t.size() && (std::isalnum(static_cast<unsigned char>(t[n])) || t[n] == '_')) ++n;
  return n > 0 && !std::isdigit(static_cast<unsigned char>(t[0])) && n < t.size() && t[n] == '=';
}

// An untagged or indented block whose first line that is not a comment or an assignment
// starts with a program people run from READMEs.
bool looks_like_commands(const Block& b) {
  static const std::set<std::string> progs = {
      "pip", "pip3", "uv", "conda", "mamba", "micromamba", "docker", "podman", "enroot", "srun", "sbatch",
      "torchrun", "accelerate", "deepspeed", "vllm", "python", "python3", "export", "git", "apt", "apt-get",
      "huggingface-cli", "hf", "nvidia-smi", "trtllm-serve", "trtllm-build", "sglang", "mpirun", "bash",
      "cd", "curl", "wget", "llamafactory-cli", "tune", "ollama", "nvcc", "cmake", "make", "ray", "source",
      "nohup", "ssh"};
  for (const std::string& l : b.lines) {
    std::string t = trim(l);
    if (t.empty() || (t[0] == '#' && !starts_with(t, "# ") ) || assignment_line(t)) continue;
    if (starts_with(t, "# ") && !progs.count(first_word(t))) continue;  // a comment, not a root prompt
    return progs.count(first_word(t)) > 0;
  }
  return false;
}

// A ".md" notes file that is shell without fences: no fence line, and at least 3 of every
// 5 lines that start a command (not continuations or indented text) begin with a known
// program, an assignment or a comment. Read whole as one untagged block.
bool shell_notes(const std::vector<std::string>& lines, Block& b) {
  if (std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return fence_line(l); })) return false;
  b.lines = lines;
  b.first_line = 1;
  if (!looks_like_commands(b)) return false;
  size_t starts = 0, shell = 0;
  bool continued = false;
  for (const std::string& l : lines) {
    std::string t = trim(l);
    bool lead = !t.empty() && !continued && !std::isspace(static_cast<unsigned char>(l[0]));
    continued = !t.empty() && t.back() == '\\';
    if (!lead) continue;
    ++starts;
    Block one;
    one.lines = {t};
    shell += t[0] == '#' || assignment_line(t) || looks_like_commands(one);
  }
  return starts > 0 && shell * 5 >= starts * 3;
}

// What a block's info string says it holds: a file name the registry knows, "sh", or "".
std::string kind_of(const Block& b) {
  const std::string& l = b.lang;
  if (l == "sh" || l == "bash" || l == "shell" || l == "console" || l == "zsh" || l == "shell-session" ||
      l == "shellsession" || l == "bash-session" || l == "terminal")
    return "sh";
  if (l == "dockerfile" || l == "docker" || l == "containerfile") return "Dockerfile";
  if (l == "yaml" || l == "yml") return "block.yaml";
  if (l == "toml") return "block.toml";
  if (l == "json" || l == "jsonc") return "block.json";
  if (l == "python" || l == "py" || l == "python3") return "block.py";
  if (l == "ini" || l == "cfg" || l == "conf" || l == "systemd") return "block.ini";
  if (l.empty() && looks_like_commands(b)) return "sh";
  return "";
}

// Bytes of the prompt that starts `l` ("$ ", "# " in console blocks,
// "user@host:~$ "), 0 when it has none.
size_t prompt(std::string_view l, bool console) {
  size_t i = l.find_first_not_of(" \t");
  if (i == std::string_view::npos) return 0;
  std::string_view t = l.substr(i);
  if (starts_with(t, "$ ") || (console && starts_with(t, "# "))) return i + 2;
  size_t at = t.find('@'), colon = t.find(':'), sp = t.find(' ');
  if (at == std::string_view::npos || colon == std::string_view::npos || at > colon || sp < colon) return 0;
  size_t end = t.find_first_of("$#", colon);
  if (end == std::string_view::npos || end + 1 >= t.size() || t[end + 1] != ' ') return 0;
  if (t.substr(colon, end - colon).find(' ') != std::string_view::npos) return 0;
  return i + end + 2;
}

// Documentation placeholders (`<your_token>`) read as redirections; make them
// words of the same width.
void placeholders(std::string& l) {
  for (size_t b = l.find('<'); b != std::string::npos; b = l.find('<', b + 1)) {
    if ((b > 0 && (l[b - 1] == '<' || l[b - 1] == '$')) || b + 1 >= l.size() || !std::isalpha(static_cast<unsigned char>(l[b + 1])))
      continue;
    size_t e = l.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.:/", b + 1);
    if (e == std::string::npos || l[e] != '>') continue;
    l[b] = '_';
    l[e] = '_';
  }
}

// Console transcripts: keep prompt lines (prompt blanked, columns kept) and
// their `\` continuations, blank the output lines. A console block with no prompt at all is a
// list of commands, as a bash block is.
std::vector<std::string> strip_prompts(const std::vector<std::string>& lines, bool console) {
  bool any = false, root = false;
  for (const std::string& l : lines) any = any || prompt(l, false) > 0, root = root || prompt(l, true) > 0;
  if (!any && (!console || !root)) return lines;
  std::vector<std::string> out;
  bool cont = false;
  for (const std::string& l : lines) {
    if (size_t p = prompt(l, console && !any); p > 0) {  // `# ` is a root prompt only where no `$` is
      out.push_back(std::string(p, ' ') + l.substr(p));
    } else if (cont) {
      out.push_back(l);
    } else {
      out.push_back(std::string());  // output
      continue;
    }
    std::string t = trim(out.back());
    cont = !t.empty() && t.back() == '\\';
  }
  return out;
}

// A label that marks the code after it as what not to do: `# ❌ Don't use:`, `# Wrong (3x
// slower!)`, `**Bad:**`. A cross or "no" mark anywhere, or a short label starting with one of
// the words below (so "# do not skip this step" is not one).
bool negative_label(std::string_view text) {
  std::string t = lower(trim(text));
  while (!t.empty() && (t[0] == '#' || t[0] == '/' || t[0] == '*' || t[0] == ' ')) t.erase(0, 1);
  for (const char* mark : {"\xe2\x9d\x8c" /* ❌ */, "\xe2\x9c\x97" /* ✗ */, "\xf0\x9f\x9a\xab" /* 🚫 */,
                           "\xe2\x9b\x94" /* ⛔ */})
    if (t.find(mark) != std::string::npos) return true;
  if (t.size() > 60) return false;
  for (const char* w : {"wrong", "incorrect", "bad:", "bad ", "bad(", "don't", "dont ", "do not use", "not this",
                        "anti-pattern", "old way", "will fail", "won't work", "doesn't work", "does not work"})
    if (starts_with(t, w)) return true;
  return t == "bad";
}

// The lines of a code block after a negative comment (up to a blank line or the next comment),
// blanked: they are shown so as not to be run. Widths and line count are kept.
void blank_negative_lines(std::vector<std::string>& lines) {
  bool skipping = false;
  for (std::string& l : lines) {
    std::string t = trim(l);
    bool comment = starts_with(t, "#") || starts_with(t, "//");
    if (comment) skipping = negative_label(t);
    else if (t.empty()) skipping = false;
    else if (skipping) l.assign(l.size(), ' ');
  }
}

class MarkdownReader {
 public:
  MarkdownReader(const SourceFile& src, FileFacts& out, ParseDiag& diag) : src_(src), out_(out), diag_(diag) {}

  void block(Block& b) {
    if (b.heading) {
      negative_ = b.heading == 7 && negative_label(b.title);  // `**❌ Wrong:**` marks the next block
      if (b.heading <= 6) heading(b.heading, step_number(b.title), b.title);
      out_.sections.push_back({b.first_line, b.heading, std::move(b.title)});  // a bold label (7) does not close a container step
      return;
    }
    std::string kind = kind_of(b);
    if (kind.empty()) return;
    if (std::exchange(negative_, false)) return;  // the block under a negative label
    blank_negative_lines(b.lines);
    int start = b.first_line;
    if (start >= 1 && start <= src_.line_count() && fence_line(src_.line(start))) ++start;
    const std::vector<std::string> written = b.lines;  // prompts are blanked below, widths kept
    if (kind == "sh") {
      bool console = b.lang == "console" || b.lang == "shell-session" || b.lang == "shellsession" ||
                     b.lang == "bash-session" || b.lang == "terminal";
      b.lines = strip_prompts(b.lines, console);
      for (std::string& l : b.lines) placeholders(l);
    }
    EmbedMap m;
    std::string text;
    for (size_t i = 0; i < b.lines.size(); ++i) {
      m.add(src_, start + static_cast<int>(i), written[i]);
      text += b.lines[i];
      text += '\n';
    }
    if (b.lines.empty()) return;
    out_.code_lines.push_back({start, start + static_cast<int>(b.lines.size()) - 1});
    if (kind == "sh") return shell(std::move(text), m, prose_image(start - 1));
    if (kind == "block.ini") return ini(std::move(text), m);
    if (kind == "block.yaml" && compose_like(b)) kind = "compose.yaml";
    ParseDiag d;
    parse_embedded(src_, kind, std::move(text), m, out_, d);
    keep_notes(d);
  }

 private:
  const SourceFile& src_;
  FileFacts& out_;
  ParseDiag& diag_;
  std::map<std::string, std::string> vars_;
  int level_ = 0;          // the level of the heading the text is under (0: none yet)
  bool negative_ = false;  // the last label marks the next block as what not to do
  bool in_container_ = false;
  int container_level_ = 0;  // the level of the section the container was opened in
  int step_ = 0;             // the step number of the heading the text is under (0: none)
  int container_step_ = 0;   // the step the container was opened in

  // A heading closes the container's section, unless it is the next numbered step at the same
  // level (`### 1. Start the container`, then `### 2. Install dependencies`); a heading at any
  // level that says the step runs elsewhere (`## On the host`) closes it too.
  void heading(int level, int step, const std::string& title) {
    bool next_step = level == container_level_ && container_step_ > 0 && step > container_step_ && !leaves(title);
    bool closes = container_level_ == 0 || level <= container_level_ || leaves(title);
    if (in_container_ && closes && !next_step) in_container_ = false;
    if (in_container_ && next_step) container_step_ = step;
    level_ = level;
    step_ = step;
  }

  // A heading that says the step runs elsewhere: `4. Back on the host`, `Exit the container`.
  static bool leaves(const std::string& title) {
    std::string t = lower(title);
    for (const char* w : {"host", "exit", "outside", "new terminal", "another terminal", "second terminal", "leave"})
      if (t.find(w) != std::string::npos) return true;
    return false;
  }

  // The number a step heading starts with: `2. Install`, `Step 3: Train`, `🔧 Step 4 -`,
  // `4) Serve`, `步骤 4.`, `第 4 步`; 0 for none.
  static int step_number(const std::string& title) {
    std::string t = lower(trim(title));
    size_t lead = 0;  // emoji and marks before the words
    while (lead < t.size() && !std::isalnum(static_cast<unsigned char>(t[lead])) &&
           (static_cast<unsigned char>(t[lead]) < 0x80 || static_cast<unsigned char>(t[lead]) >= 0xf0))
      lead += static_cast<unsigned char>(t[lead]) >= 0xf0 ? 4 : 1;
    t = trim(t.substr(std::min(lead, t.size())));
    for (const char* w : {"step", "\xe6\xad\xa5\xe9\xaa\xa4" /* 步骤 */, "\xe7\xac\xac" /* 第 */})
      if (starts_with(t, w)) t = trim(t.substr(std::string_view(w).size()));
    size_t n = 0;
    while (n < t.size() && n < 3 && std::isdigit(static_cast<unsigned char>(t[n]))) ++n;
    if (n == 0 || (n < t.size() && t[n] != '.' && t[n] != ')' && t[n] != ':' && t[n] != ' ')) return 0;
    return std::stoi(t.substr(0, n));
  }

  // Marks the commands that run in the container a step opened; opens and closes it. A
  // block that says it runs inside (`# inside the container`) runs in the document's container
  // (the last image named before it, else the first after it).
  void container_steps(FileFacts& block, bool says_inside) {
    bool inside_block = says_inside;
    for (Command& c : block.commands) {
      if (c.argv.empty()) continue;
      std::string prog = program_name(c.argv[0].text);
      size_t at = prog == "sudo" && c.argv.size() > 1 ? 1 : 0;
      if (is_docker(program_name(c.argv[at].text))) {
        inside_block = false;
        in_container_ = opens_shell(c, at);
        container_level_ = level_;
        container_step_ = step_;
        continue;
      }
      if (prog == "exit") {
        in_container_ = inside_block = false;
        continue;
      }
      if (in_container_ || inside_block) c.context = CommandContext::Container;
    }
  }

  static bool is_docker(const std::string& p) { return p == "docker" || p == "podman" || p == "nvidia-docker"; }

  // `docker run -it [opts] IMAGE [bash|jupyter lab]` / `docker exec -it NAME bash`: an interactive shell.
  static bool opens_shell(const Command& c, size_t at) {
    if (at + 1 >= c.argv.size()) return false;
    const std::string& sub = c.argv[at + 1].text;
    if (sub != "run" && sub != "exec") return false;
    bool interactive = false;
    for (size_t i = at + 2; i < c.argv.size(); ++i) {
      const std::string& a = c.argv[i].text;
      if (a == "--interactive" || (a.size() > 1 && a[0] == '-' && a[1] != '-' && a.find('i') != std::string::npos))
        interactive = true;
    }
    const std::string& last = c.argv.back().text;
    std::string lb = program_name(last);
    bool shell = lb == "bash" || lb == "sh" || lb == "zsh" || runs_jupyter(c, at + 2);
    bool image_last = sub == "run" && last.find_first_of(":/") != std::string::npos && last[0] != '-' &&
                      last.find('=') == std::string::npos;
    return interactive && (shell || image_last);
  }

  // `docker run -it IMAGE jupyter lab …`: the reader works in the container's Jupyter, whose
  // terminal and cells run the steps that follow.
  static bool runs_jupyter(const Command& c, size_t from) {
    for (size_t i = from; i < c.argv.size(); ++i) {
      std::string p = program_name(c.argv[i].text);
      if (p == "jupyter" || p == "jupyter-lab" || p == "jupyter-notebook") return true;
    }
    return false;
  }

  // A block that opens with a comment saying it runs in the container.
  static bool says_inside(const std::string& text) {
    std::string t = trim(text.substr(0, text.find('\n')));
    if (!starts_with(t, "#")) return false;
    std::string l = lower(t);
    for (const char* w : {"inside the container", "in the container", "inside container", "in container",
                          "inside ngc", "ngc container", "within the container", "in your container",
                          "inside the docker", "container shell", "(container)"})
      if (l.find(w) != std::string::npos) return true;
    return false;
  }

  static bool compose_like(const Block& b) {
    for (const std::string& l : b.lines)
      if (starts_with(l, "services:")) return true;
    return false;
  }

  // The sentence just above a fence that puts its steps in an image: "Inside
  // `nvcr.io/nvidia/pytorch:25.11-py3` or similar:". The image is added at the word that names
  // it, with a stage of its own; false when the line says no such thing.
  bool prose_image(int fence) {
    int ln = fence - 1;
    while (ln >= 1 && ln > fence - 3 && trim(src_.line(ln)).empty()) --ln;
    if (ln < 1 || fence_line(src_.line(ln))) return false;
    std::string_view line = src_.line(ln);
    std::string l = lower(line);
    if (l.find("inside") == std::string::npos && l.find("within") == std::string::npos) return false;
    for (size_t b = 0; b < line.size();) {
      size_t e = line.find_first_of(" \t`*\"'(),", b);
      if (e == std::string_view::npos) e = line.size();
      std::string_view w = line.substr(b, e - b);
      while (!w.empty() && (w.back() == ':' || w.back() == '.')) w.remove_suffix(1);
      if (image_ref(w)) {
        Image im;
        im.ref = std::string(w);
        im.stage = static_cast<int>(out_.images.size());
        im.loc = src_.loc(src_.line_start(ln) + b, src_.line_start(ln) + b + w.size());
        out_.images.push_back(std::move(im));
        return true;
      }
      b = e + 1;
    }
    return false;
  }

  // registry/name:tag or name/name:tag, not a URL
  static bool image_ref(std::string_view w) {
    size_t slash = w.find('/'), colon = w.rfind(':');
    return slash != std::string_view::npos && colon != std::string_view::npos && colon > slash &&
           colon + 1 < w.size() && w.find("://") == std::string_view::npos && w.find('$') == std::string_view::npos;
  }

  void shell(std::string text, const EmbedMap& m, bool in_image = false) {
    SourceFile view(src_.path(), std::move(text));
    FileFacts tmp;
    ParseDiag d;
    bool inside = in_image || says_inside(view.text());
    parse_shell(view, vars_, -1, CommandContext::Markdown, tmp, d);
    container_steps(tmp, inside);
    for (const EnvSetting& e : tmp.env) vars_[e.name] = e.value;
    embed_remap(tmp, d, m);
    embed_merge(out_, std::move(tmp), 0);
    keep_notes(d);
  }

  void ini(std::string text, const EmbedMap& m) {
    SourceFile view(src_.path(), std::move(text));
    FileFacts tmp;
    ParseDiag d;
    ini_entries(view, tmp, d);
    embed_remap(tmp, d, m);
    embed_merge(out_, std::move(tmp), 0);
    keep_notes(d);
  }

  // A README's snippets are excerpts (`...`, a Dockerfile without FROM, JSON
  // fragments): their syntax errors are not reported, only other notes.
  void keep_notes(ParseDiag& d) {
    for (Notification& n : d.notes)
      if (n.id != "parse-error" && n.id != "parse-warning" && n.id.find("-syntax") == std::string::npos)
        diag_.notes.push_back(std::move(n));
  }
};

// The top-level "key: value" lines of a YAML (`---`) or TOML (`+++`) front matter at the top
// of the file: at most 64 keys from its first 200 lines, each at most 300 bytes.
std::vector<std::string> front_matter(const SourceFile& src) {
  std::vector<std::string> keys;
  std::string open = src.line_count() >= 1 ? trim(src.line(1)) : "";
  if (open != "---" && open != "+++") return keys;
  for (int i = 2; i <= src.line_count() && i <= 200 && keys.size() < 64; ++i) {
    std::string_view l = src.line(i);
    std::string t = trim(l);
    if (t == open || (open == "---" && t == "...")) return keys;
    size_t sep = l.find(open == "---" ? ':' : '=');
    if (l.empty() || !std::isalpha(static_cast<unsigned char>(l[0])) || sep == std::string_view::npos) continue;
    std::string key = lower(trim(l.substr(0, sep))), value = trim(l.substr(sep + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    keys.push_back((key + ": " + value).substr(0, 300));
  }
  return {};  // never closed: not a front matter
}

class MarkdownParser : public Parser {
 public:
  FileKind kind() const override { return FileKind::Markdown; }
  bool accepts(const FileInfo& f) const override {
    std::string n = lower(f.name);
    return ends_with(n, ".md") || ends_with(n, ".mdx") || ends_with(n, ".markdown");
  }
  void parse(const SourceFile& src, FileFacts& out, ParseDiag& diag) const override {
    out.kind = FileKind::Markdown;
    out.front_matter = front_matter(src);
    MarkdownReader r(src, out, diag);
    std::vector<Block> blocks;
    Block notes;
    if (shell_notes(split_lines(src.text()), notes)) blocks.push_back(std::move(notes));
    else blocks = code_blocks(src.text());
    for (Block& b : blocks) r.block(b);
  }
};

}  // namespace

SPARKCHECK_PARSER(MarkdownParser);

}  // namespace sc
