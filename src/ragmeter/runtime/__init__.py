"""What every long job in ragmeter runs on, below the engine: one shared event loop and the
progress bar.

Why a package of its own: the engine, the adapters, ``align`` and the test-set generator
(``testset_gen``) all drive async work from blocking calls and show progress the same way;
kept inside the engine, each of them had to reach into it for two helpers that know nothing
of scoring.

* ``run_sync(make)``: run the coroutine ``make()`` returns on the process's one long-lived
  loop (``loop``), from a script or a notebook alike; ``synchronous(afunction, doc)``: the
  blocking twin of an async function; ``shared_loop()``: that loop.
* ``progress_bar(total, description)``: a rich bar on stderr (stdout stays for tables and JSON).
"""

from ragmeter.runtime.loop import run_sync, shared_loop, synchronous
from ragmeter.runtime.progress import progress_bar

__all__ = ["progress_bar", "run_sync", "shared_loop", "synchronous"]
