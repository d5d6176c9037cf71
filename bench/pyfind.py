"""The right Python for a bench script: `pyfind.need("numpy", ...)` at the
top of a script returns when this interpreter has the modules; otherwise it
runs the script again with the tests' environment's Python (build/pyvenv-*/
made by scripts/pyenv.sh, /work-style `$TC5_PYTHON` first) when that one has
them, or exits saying which Python to use and how to make it. Standard
library only."""
import glob
import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _has(python, modules):
    code = "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in sys.argv[1:]))"
    try:
        return subprocess.run([python, "-c", code, *modules], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def need(*modules, hint=""):
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    here = os.path.abspath(sys.executable)
    candidates = [os.environ.get("TC5_PYTHON", "")] + sorted(glob.glob(os.path.join(ROOT, "build", "pyvenv-*",
                                                                                    "bin", "python")))
    for py in candidates:
        if py and os.path.exists(py) and os.path.abspath(py) != here and _has(py, modules) \
                and not os.environ.get("TC5_PYFIND_REEXEC"):
            print(f"{os.path.basename(sys.argv[0])}: {', '.join(missing)} not in {sys.executable}; running with {py}",
                  file=sys.stderr)
            os.environ["TC5_PYFIND_REEXEC"] = "1"
            os.execv(py, [py, *sys.argv])
    sys.exit(f"{os.path.basename(sys.argv[0])} needs {', '.join(modules)} ({', '.join(missing)} missing in "
             f"{sys.executable}): run it with the tests' Python, `$(scripts/pyenv.sh)/bin/python {sys.argv[0]}` "
             f"(scripts/pyenv.sh makes it from PyPI){hint}")
