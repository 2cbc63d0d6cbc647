"""This checkout's packages first on ``sys.path``, however a bench script starts.

``python bench/X.py`` puts bench/ first on the path, where bench/engine.py
would hide the engine and another checkout's editable install could answer
for this one; ``python -m bench.X`` and a test loading the file put the
working directory first.  Each script imports this module before it imports
the engine or the service (``ROOT`` is the checkout)::

    try:  # python bench/X.py: bench/ is sys.path[0] (this checkout's helper, whatever is installed)
        from _checkout import ROOT
    except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
        from bench._checkout import ROOT
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)
elif str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
