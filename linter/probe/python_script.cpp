// SPDX-License-Identifier: Apache-2.0
// The script `sparkcheck probe` runs in the chosen interpreter (`python -I -c`,
// from an empty temporary directory). It reads installed versions through
// importlib.metadata (no import), then imports torch and flash_attn only,
// and prints one JSON object on stdout. It never imports project code.
#include "probe/machine.h"
#include "query/packages.h"

namespace sc::probe {
namespace {

const char* script_head() {
  return R"PY(
import json, os, sys, time
out = {"python": sys.version.split()[0], "executable": sys.executable,
       "prefix": sys.prefix, "base_prefix": getattr(sys, "base_prefix", sys.prefix),
       "platform": sys.platform}
out["in_venv"] = out["prefix"] != out["base_prefix"]
try:
    import importlib.metadata as md
except Exception as e:
    md = None
    out["metadata_error"] = repr(e)
NAMES = ["torch", "triton", "pytorch-triton", "xformers", "transformers", "flash-attn", "flash_attn",
         "unsloth", "unsloth_zoo", "bitsandbytes", "trl", "peft", "accelerate", "datasets",
         "vllm", "sglang", "sgl-kernel", "flashinfer-python", "transformer-engine",
         "transformer_engine", "torchao", "fbgemm-gpu", "tensorrt-llm", "tensorrt_llm",
         "deepspeed", "nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime", "liger-kernel",
         "nvidia-nccl-cu13", "nvidia-nccl-cu12"]
try:
    import platform
    out["machine"] = platform.machine()
except Exception:
    pass
)PY";
}

const char* script_body() {
  return R"PY(
KERNEL_PKGS |= {n.replace("-", "_") for n in KERNEL_PKGS}
NAMES += sorted(n for n in KERNEL_PKGS if n not in NAMES)
dists = {}
if md is not None:
    for n in NAMES:
        try:
            d = md.distribution(n)
        except Exception:
            continue
        key = (d.metadata.get("Name") or n).lower().replace("_", "-")
        if key in dists:
            continue
        info = {"version": d.version}
        try:
            p = getattr(d, "_path", None)
            if p is not None:
                info["mtime"] = os.stat(str(p)).st_mtime
                info["location"] = str(p)
            inst = d.read_text("INSTALLER")
            if inst:
                info["installer"] = inst.strip()
            if d.read_text("direct_url.json"):
                info["direct_url"] = True
        except Exception:
            pass
        if n in KERNEL_PKGS:
            sos = []
            try:
                for f in (d.files or []):
                    s = str(f)
                    if s.endswith(".so") or ".so." in s:
                        full = str(d.locate_file(f))
                        try:
                            size = os.path.getsize(full)
                        except OSError:
                            continue
                        sos.append([full, size])
            except Exception:
                pass
            sos.sort(key=lambda x: -x[1])
            info["shared_objects"] = [s[0] for s in sos[:4]]
        dists[key] = info
out["dists"] = dists
t = {"installed": "torch" in dists}
if t["installed"]:
    t0 = time.time()
    try:
        import torch
        t["version"] = torch.__version__
        t["cuda"] = torch.version.cuda
        t["file"] = getattr(torch, "__file__", None)
        try:
            t["flash_sdp"] = bool(torch.backends.cuda.flash_sdp_enabled())
        except Exception as e:
            t["flash_sdp_error"] = repr(e)
        try:
            v = torch.cuda.nccl.version()
            t["nccl"] = ".".join(str(x) for x in v) if isinstance(v, tuple) else str(v)
        except Exception as e:
            t["nccl_error"] = repr(e)[:300]
        try:
            t["arch_list"] = list(torch.cuda.get_arch_list())
        except Exception as e:
            t["arch_list_error"] = repr(e)
        try:
            import warnings
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                t["cuda_available"] = bool(torch.cuda.is_available())
                if t["cuda_available"]:
                    t["device_count"] = torch.cuda.device_count()
                    t["capability"] = list(torch.cuda.get_device_capability(0))
                    t["device_name"] = torch.cuda.get_device_name(0)
            t["warnings"] = [str(x.message)[:300] for x in w][:5]
        except Exception as e:
            t["cuda_error"] = repr(e)[:500]
    except Exception as e:
        t["import_error"] = repr(e)[:500]
    t["import_seconds"] = round(time.time() - t0, 2)
out["torch"] = t
fa = {"installed": ("flash-attn" in dists)}
if fa["installed"]:
    try:
        import flash_attn
        fa["importable"] = True
        fa["version"] = getattr(flash_attn, "__version__", None)
        try:
            from flash_attn import flash_attn_interface as fi
            fa["cuda_ext"] = bool(getattr(fi, "flash_attn_gpu", None) or getattr(fi, "flash_attn_cuda", None))
        except Exception as e:
            fa["cuda_ext"] = False
            fa["cuda_ext_error"] = repr(e)[:300]
    except Exception as e:
        fa["importable"] = False
        fa["import_error"] = repr(e)[:500]
out["flash_attn"] = fa
cudart = []
for p in sys.path:
    d = os.path.join(p, "nvidia", "cuda_runtime", "lib")
    if os.path.isdir(d):
        cudart += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.startswith("libcudart.so")]
    d = os.path.join(p, "nvidia", "cu13", "lib")
    if os.path.isdir(d):
        cudart += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.startswith("libcudart.so")]
out["wheel_cudart"] = cudart
print("SPARKCHECK-JSON " + json.dumps(out))
)PY";
}

// KERNEL_PKGS: knowledge/packages.yaml ml-packages with role cuda-kernels.
std::string kernel_set() {
  std::string s = "KERNEL_PKGS = {";
  for (const std::string& n : query::with_role("cuda-kernels")) s += "\"" + n + "\", ";
  return s + "}";
}

}  // namespace

const std::string& python_probe_script() {
  static const std::string script = std::string(script_head()) + kernel_set() + script_body();
  return script;
}

}  // namespace sc::probe
