// G1: CUDA 12 / CUDA 13 mismatches and CUDA builds without Blackwell kernels.
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include "analysis/project.h"
#include "core/registry.h"
#include "analysis/environments.h"
#include "knowledge/cuda.h"

namespace sc {
namespace {

const char* kFixIndex = "use the CUDA 13 build: --index-url https://download.pytorch.org/whl/cu130 with torch>=2.9 "
                        "(torch==X+cu130), or uv --torch-backend=cu130";

std::string cuda_text(int v) {  // 124 -> "12.4", 130 -> "13.0"
  return std::to_string(v / 10) + "." + std::to_string(v % 10);
}

// One finding per line: keeps the most severe, merges related locations.
class Sink {
 public:
  void add(Finding f) {
    f.rule = "G1";
    auto key = std::make_pair(f.loc.path, f.loc.range.line);
    auto it = by_line_.find(key);
    if (it == by_line_.end()) {
      by_line_.emplace(key, std::move(f));
      return;
    }
    if (static_cast<int>(f.level) > static_cast<int>(it->second.level)) {
      for (auto& r : it->second.related) f.related.push_back(r);
      it->second = std::move(f);
    }
  }
  void flush(Reporter& out) {
    for (auto& [k, f] : by_line_) {
      std::vector<Related> rel;
      std::set<std::pair<std::string, int>> seen;
      for (auto& r : f.related)
        if (seen.insert({r.loc.path, r.loc.range.line}).second && r.loc.range.valid()) rel.push_back(r);
      f.related = std::move(rel);
      out.report(std::move(f));
    }
  }

 private:
  std::map<std::pair<std::string, int>, Finding> by_line_;
};

Finding make(Level lv, const Location& loc, std::string msg, std::string fix, std::vector<Related> rel = {}) {
  Finding f;
  f.level = lv;
  f.loc = loc;
  f.message = std::move(msg);
  f.fix = std::move(fix);
  f.related = std::move(rel);
  return f;
}

// Highest CUDA version (major*10+minor) a conda/pip version specifier allows for a CUDA
// meta package (pytorch-cuda, cudatoolkit, cuda-version, cuda-toolkit); -1 when unbounded.
int max_cuda_of_spec(const std::string& spec) {
  int best = -1;
  bool bounded = false;
  for (auto& clause : split(spec, ',')) {
    std::string c = trim(clause);
    std::string op;
    for (std::string_view o : {"===", "==", "<=", ">=", "~=", "!=", "<", ">", "="})
      if (starts_with(c, o)) { op = std::string(o); c = c.substr(o.size()); break; }
    if (op.empty() && !c.empty() && std::isdigit(static_cast<unsigned char>(c[0]))) op = "=";
    auto parts = split(c, '.');
    if (parts.empty() || parts[0].empty() || !std::isdigit(static_cast<unsigned char>(parts[0][0]))) continue;
    int maj = std::atoi(parts[0].c_str());
    int min = parts.size() > 1 && !parts[1].empty() && std::isdigit(static_cast<unsigned char>(parts[1][0]))
                  ? std::atoi(parts[1].c_str()) : -1;
    int v = -1;
    if (op == "=" || op == "==" || op == "===" || op == "<=" || op == "~=") v = maj * 10 + (min < 0 ? 9 : min);
    else if (op == "<") v = (min <= 0) ? (maj - 1) * 10 + 9 : maj * 10 + min - 1;
    else continue;
    bounded = true;
    if (best < 0 || v < best) best = v;
  }
  return bounded ? best : -1;
}

bool is_cuda_meta(const std::string& n) {
  return n == "pytorch-cuda" || n == "cudatoolkit" || n == "cuda-version" || n == "cuda-toolkit";
}

class G1 : public Rule {
 public:
  std::string_view id() const override { return "G1"; }

  void check(const Project& p, Reporter& out) const override {
    Sink sink;
    for (const auto& up : p.files) items(p, *up, sink);
    for (const auto& up : p.files)
      images(*up, sink);  // FROM lines, and images named by commands in any file
    for (const PkgEnv& env : package_envs(p)) environment(p, env, sink);
    sink.flush(out);
  }

 private:
  static std::vector<Related> via(const Project& p, const ParsedFile& f) {
    std::vector<Related> rel;
    if (f.facts.kind != FileKind::Requirements) return rel;
    for (const auto& c : p.contexts_for(f)) {
      if (!c.via.range.valid()) continue;
      std::string what = c.dockerfile ? "installed in this Dockerfile stage" : "installed by this command";
      if (c.image) what += " (base image " + c.image->ref + ")";
      rel.push_back({c.via, what});
    }
    return rel;
  }

  // Version tags on their own: wheel indexes, +cuXYZ local versions, conda CUDA pins.
  static void items(const Project& p, const ParsedFile& f, Sink& sink) {
    // Index variables set but maybe not used by an install in the same file (ENV, export).
    static const std::set<std::string> index_vars = {"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS",
                                                     "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_DEFAULT_INDEX",
                                                     "UV_INDEX"};
    for (const EnvSetting& e : f.facts.env) {
      if (!index_vars.count(e.name)) continue;
      for (auto& u : split(e.value, ' ')) {
        int v = cuda_of_url(u);
        if (v > 0 && v <= 126)
          sink.add(make(Level::Error, e.loc,
                        e.name + " points pip/uv at CUDA " + cuda_text(v) +
                            " wheels: they carry no Blackwell (sm_120/sm_121) kernels for the Spark's GB10",
                        kFixIndex));
      }
    }
    for (const Install& in : f.facts.installs) {
      for (const IndexUrl& ix : in.indexes) {
        int v = cuda_of_url(ix.url);
        if (v <= 0 || v >= 130) continue;
        if (v <= 126) {
          sink.add(make(Level::Error, ix.loc,
                        "wheel index " + ix.url + " serves CUDA " + cuda_text(v) +
                            " builds: they carry no Blackwell (sm_120/sm_121) kernels, so they cannot run on the "
                            "Spark's GB10, and they pull a CUDA 12 stack onto its CUDA 13 host",
                        kFixIndex, via(p, f)));
        } else {
          sink.add(make(Level::Warning, ix.loc,
                        "wheel index " + ix.url + " serves CUDA " + cuda_text(v) +
                            " builds: a self-consistent cu12x stack runs on the Spark via sm_120 kernels, but it "
                            "is slower than cu130, unsupported by NVIDIA's Spark playbooks, and breaks as soon as a "
                            "CUDA 13 package joins it",
                        kFixIndex, via(p, f)));
        }
      }
      for (const Requirement& r : in.packages) {
        if (requirement_skips_aarch64(r)) continue;
        int v = cuda_tag_value(r.local_version);
        if (v > 0 && v < 130) {
          std::string what = r.raw.empty() ? r.name : r.raw;
          if (v <= 126)
            sink.add(make(Level::Error, r.loc,
                          what + " is a CUDA " + cuda_text(v) +
                              " build with no Blackwell (sm_120/sm_121) kernels: it fails on the Spark's GB10 "
                              "(\"no kernel image is available\") and needs a CUDA 12 runtime the CUDA 13 host lacks",
                          kFixIndex, via(p, f)));
          else
            sink.add(make(Level::Warning, r.loc,
                          what + " is a CUDA " + cuda_text(v) +
                              " build: it runs on the Spark through sm_120 kernels only if every CUDA package "
                              "around it is CUDA 12 too; NVIDIA's Spark stack is CUDA 13 (cu130)",
                          kFixIndex, via(p, f)));
        }
        if (is_cuda_meta(r.name)) {
          int mx = max_cuda_of_spec(r.specifier);
          if (mx > 0 && mx < 130) {
            Level lv = mx <= 126 ? Level::Error : Level::Warning;
            sink.add(make(lv, r.loc,
                          r.raw + " pins the environment to CUDA " + (mx % 10 == 9 && mx / 10 == 12 ? std::string("12.x")
                                                                                                   : cuda_text(mx)) +
                              (lv == Level::Error
                                   ? ": no Blackwell (sm_120/sm_121) kernels for the Spark's GB10, and a CUDA " +
                                         std::to_string(mx / 10) + " runtime on a CUDA 13 host"
                                   : ": CUDA 12 builds run on the Spark only through sm_120 kernels and clash with "
                                     "CUDA 13 packages"),
                          "select CUDA 13: cuda-version>=13 (conda-forge), or the cu130 wheel index for pip", via(p, f)));
          }
        }
        Requirement rr = r;
        rr.local_version.clear();
        if (cuda_major_of_package(rr) == 11)
          sink.add(make(Level::Error, r.loc,
                        r.name + " is a CUDA 11 build: no Blackwell kernels and no CUDA 11 runtime on the Spark",
                        "use the CUDA 13 variant of the package (-cu13 / cuda13x / [cuda13])", via(p, f)));
      }
    }
  }

  static bool smoke_test_stage(const ParsedFile& df, int stage) {
    bool any = false;
    for (const Command& c : df.facts.commands) {
      if (c.stage != stage || c.argv.empty()) continue;
      std::string prog = c.argv[0].text;
      prog = prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1);
      if (prog != "nvidia-smi") return false;
      any = true;
    }
    for (const Install& in : df.facts.installs)
      if (in.stage == stage) return false;
    return any;
  }

  static void images(const ParsedFile& df, Sink& sink) {
    for (const Image& im : df.facts.images) {
      if (im.from_stage) continue;
      ImageCuda ic = image_cuda(im.ref);
      if (!ic.known) continue;
      if (smoke_test_stage(df, im.stage)) continue;
      if (ic.ngc && ic.major < 13) {
        bool pre_blackwell = ic.major < 12 || ic.minor <= 6;  // sm_120 arrived with CUDA 12.8
        sink.add(make(Level::Error, im.loc,
                      im.ref + ": " + ic.how + "; NGC containers before 25.08 are CUDA 12 builds" +
                          (pre_blackwell ? std::string(" with no Blackwell (sm_120/sm_121) kernels at all, so the GB10 "
                                                       "cannot run their CUDA code")
                                         : std::string(" that predate NVIDIA's DGX Spark (CUDA 13) support: the GB10 "
                                                       "gets sm_120 kernels at best, and cu130 wheels added to the "
                                                       "image fail (libcudart.so.13 missing)")),
                      "use nvcr.io/nvidia/pytorch:25.11-py3 or newer (25.08 is the first CUDA 13 release)"));
      } else if (ic.major < 12 || (ic.major == 12 && ic.minor >= 0 && ic.minor <= 6)) {
        sink.add(make(Level::Error, im.loc,
                      im.ref + ": " + ic.how + ", which has no Blackwell (sm_120/sm_121) support: CUDA code built "
                      "or installed in it has no kernels for the Spark's GB10",
                      "use a CUDA 13 base image, e.g. nvidia/cuda:13.0.1-devel-ubuntu24.04"));
      } else if (ic.major == 12 && ic.minor >= 7) {
        sink.add(make(Level::Warning, im.loc,
                      im.ref + ": " + ic.how + ": it runs on the Spark through sm_120 kernels, but the host is "
                      "CUDA 13 and any cu130 wheel installed into it fails (libcudart.so.13 missing)",
                      "use a CUDA 13 base image, e.g. nvidia/cuda:13.0.1-devel-ubuntu24.04"));
      }
    }
  }

  struct Evidence {
    bool found = false;
    Location loc;
    std::string what;
  };

  static bool has_torch(const PkgRun& run) {
    for (const PkgMember& m : run.members)
      for (const Requirement& r : m.install->packages)
        if (r.name == "torch") return true;
    return false;
  }

  static bool cu13_backend(const PkgRun& run) {
    std::string v = lower(run.torch_backend_value);
    return run.torch_backend && (v == "auto" || cuda_tag_value(v) >= 130);
  }

  static Evidence cuda13(const PkgEnv& env, const ImageCuda& ic) {
    Evidence e;
    for (const PkgRun& run : env.runs) {
      for (const PkgMember& m : run.members)
        for (const Requirement& r : m.install->packages)
          if (r.name == "torch" && cuda_tag_value(r.local_version) >= 130)
            return {true, r.loc, r.raw};
      if (has_torch(run)) {
        for (const IndexUrl& ix : run.indexes)
          if (cuda_of_url(ix.url) >= 130) return {true, ix.loc, "torch from " + ix.url};
        if (cu13_backend(run)) return {true, run.install->loc, "torch with --torch-backend=" + run.torch_backend_value};
      }
    }
    if (env.image && ic.known && ic.major >= 13) return {true, env.image->loc, env.image->ref + " (CUDA 13)"};
    return e;
  }

  // torch pinned to a CUDA build elsewhere: a constraints/override file or spec, or a lock file.
  static bool cuda_torch_pinned(const Project& p, const PkgRun& run) {
    auto cuda_local = [](const std::string& v) { return cuda_tag_value(v) > 0; };
    if (const Requirement* r = run_pin(run, "torch"))
      if (cuda_local(r->local_version)) return true;
    for (const Requirement& r : run.inline_constraints)
      if (r.name == "torch" && cuda_local(r.local_version)) return true;
    for (const auto& f : p.files) {
      if (!f->facts.lockfile) continue;
      auto it = f->facts.locked.find("torch");
      if (it != f->facts.locked.end() && lower(it->second).find("+cu") != std::string::npos) return true;
    }
    return false;
  }

  static void environment(const Project& p, const PkgEnv& env, Sink& sink) {
    ImageCuda ic = env.image ? image_cuda(env.image->ref) : ImageCuda{};
    bool ngc = env.image && is_ngc_framework_image(env.image->ref);
    bool cuda12_image = ic.known && ic.major <= 12;
    Evidence e13 = cuda13(env, ic);
    for (const PkgRun& run : env.runs) {
      auto related_for = [&](const PkgMember& m) {
        std::vector<Related> rel;
        if (m.file != run.file) rel.push_back({run.install->loc, "installed by this command"});
        return rel;
      };
      bool run_cu13_index = false;
      for (const IndexUrl& ix : run.indexes)
        if (cuda_of_url(ix.url) >= 130) run_cu13_index = true;
      // cu13 wheels on a CUDA 12 base image
      if (cuda12_image) {
        std::vector<Related> rel = {{env.image->loc, "CUDA " + std::to_string(ic.major) + " base image"}};
        for (const IndexUrl& ix : run.indexes)
          if (cuda_of_url(ix.url) >= 130)
            sink.add(make(Level::Error, ix.loc,
                          "CUDA 13 wheels (" + ix.url + ") installed on a CUDA " + std::to_string(ic.major) +
                              " base image (" + env.image->ref + "): they need libcudart.so.13, which the image "
                              "does not have (ImportError at import time)",
                          "base the image on CUDA 13 (nvcr.io/nvidia/pytorch:25.11-py3 or nvidia/cuda:13.0.1-*)", rel));
        if (cu13_backend(run) && lower(run.torch_backend_value) != "auto")
          sink.add(make(Level::Error, run.install->loc,
                        "--torch-backend=" + run.torch_backend_value + " installs CUDA 13 torch on a CUDA " +
                            std::to_string(ic.major) + " base image (" + env.image->ref + ")",
                        "base the image on CUDA 13", rel));
      }
      for (const PkgMember& m : run.members) {
        for (const Requirement& r : m.install->packages) {
          if (requirement_skips_aarch64(r)) continue;
          auto rel = related_for(m);
          Requirement rr = r;
          if (r.name != "sgl-kernel") rr.local_version.clear();
          int cm = cuda_major_of_package(rr);
          if (r.name == "sgl-kernel" && cm == 12 && run_cu13_index) cm = 0;
          if (cm == 12 && m.install->tool != Installer::Conda && m.install->tool != Installer::CondaEnvFile) {
            if (e13.found) {
              rel.push_back({e13.loc, "CUDA 13: " + e13.what});
              sink.add(make(Level::Error, r.loc,
                            r.name + " is a CUDA 12 build in the same environment as " + e13.what +
                                ": it loads libcudart.so.12 / the CUDA 12 ABI, which the CUDA 13 stack does not provide",
                            "use the CUDA 13 variant (-cu13, cuda13x, [cuda13], or the suffix-less nvidia-* package)",
                            rel));
            } else if (r.name == "sgl-kernel" && !cuda12_image) {
              sink.add(make(Level::Error, r.loc,
                            "sgl-kernel from the default index is the CUDA 12 build and hard-codes libcudart.so.12; "
                            "the Spark's CUDA 13 stack has only libcudart.so.13 (\"Could not load any common_ops library\")",
                            "install it from the cu130 index: --extra-index-url https://docs.sglang.ai/whl/cu130/",
                            rel));
            } else if (!cuda12_image) {
              sink.add(make(Level::Warning, r.loc,
                            r.name + " is a CUDA 12 build: the Spark's host stack is CUDA 13, so it works only with its "
                            "own CUDA 12 runtime and breaks next to any CUDA 13 package (torch cu130, NGC >= 25.08)",
                            "use the CUDA 13 variant (-cu13, cuda13x, [cuda13])", rel));
            }
          }
          if (cuda12_image && (cm == 13 || cuda_tag_value(r.local_version) >= 130)) {
            rel.push_back({env.image->loc, "CUDA " + std::to_string(ic.major) + " base image"});
            sink.add(make(Level::Error, r.loc,
                          r.name + " is a CUDA 13 build installed on a CUDA " + std::to_string(ic.major) +
                              " base image (" + env.image->ref + "): it needs libcudart.so.13, which the image lacks",
                          "base the image on CUDA 13 (nvcr.io/nvidia/pytorch:25.11-py3 or nvidia/cuda:13.0.1-*)", rel));
          }
          // plain torch from the default index (bare pip, aarch64)
          Installer t = run.install->tool;
          bool pipish = t == Installer::Pip || t == Installer::UvPip || t == Installer::UvAdd ||
                        t == Installer::RequirementsFile;
          if (!ngc && pipish && r.name == "torch" && r.local_version.empty() && r.url.empty()) {
            bool cuda_index = false;
            for (const IndexUrl& ix : run.indexes)  // an index behind an unknown variable: not judged
              if (cuda_of_url(ix.url) > 0 || ix.url.find('$') != std::string::npos) cuda_index = true;
            bool backend = run.torch_backend && lower(run.torch_backend_value) != "cpu";
            if (!cuda_index && !backend && !cuda_torch_pinned(p, run))
              sink.add(make(Level::Warning, r.loc,
                            "torch from the default package index: on aarch64 (the Spark) that is a CPU-only build, so "
                            "torch.cuda.is_available() is False and training silently runs on the CPU",
                            "install from https://download.pytorch.org/whl/cu130 (--index-url) or uv --torch-backend=cu130, "
                            "or use an NGC PyTorch container (nvcr.io/nvidia/pytorch:25.11-py3)",
                            rel));
          }
        }
      }
    }
  }
};

}  // namespace
SPARKCHECK_RULE(G1);
}  // namespace sc
