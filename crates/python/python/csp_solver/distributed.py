"""Search beyond one machine, on Dask: a model split into cubes that partition its search
space (embarrassingly parallel search: Régin, Rezgui and Malapert, CP 2013), each cube
searched by one Dask task, and the results merged into the model's answer.

    from dask.distributed import Client
    from csp_solver import distributed
    client = Client("tcp://scheduler:8786")        # or LocalCluster(), dask-jobqueue, ...
    distributed.count("queens.fzn", client)         # every solution, counted
    distributed.solve("model.xml", client)          # one solution: the first cancels the rest
    distributed.optimize("model.fzn", client)       # the optimum; the best bound is shared

A model is a FlatZinc file (`.fzn`), an XCSP3 instance (`.xml`, `.xml.lzma`), a MiniZinc
model (`.mzn`, compiled first by `minizinc -c --solver csp`, with `data` files), or a
`csp_solver.Model`. Its text is sent to the workers once; each worker reads it once.

In an optimisation the best value found so far lives in a `distributed.Variable` held by the
scheduler: each running cube reads it every fraction of a second and looks only for better,
and publishes what it finds better; a cube's task also starts from it. In a satisfaction
problem the first solution sets a `distributed.Event` that stops the running cubes. A worker
lost while it searches a cube has the cube searched again (Dask's retries); the answer stays
exact, since a cube never starts from a bound only it had found.

From a shell: `python -m csp_solver.distributed count|solve|optimize FILE --scheduler ADDR`
(or `--local N` for a cluster of N workers on this machine), with a progress bar of cubes done.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _native
from .model import Model, Solution

#: Cubes per worker when `cubes` is not given: Régin et al. found 30 or more per worker to
#: even out the slow ones.
CUBES_PER_WORKER = 32

#: How often a running cube of an optimisation reads the shared bound (and the stop flag),
#: in seconds.
POLL_SECONDS = 0.2

#: How often a running cube of a count or a satisfaction problem reads the stop flag: each
#: read is a round trip to the scheduler, and on a machine it shares with the workers, fewer
#: leave them more of it.
STOP_POLL_SECONDS = 1.0

#: Retries of a cube whose task failed (a worker lost), beyond Dask's own rescheduling.
RETRIES = 3


@dataclass
class DistributedResult:
    """What a distributed run found.

    `complete`: the answer is the whole model's (every cube searched to its end, or, for one
    solution, a solution found). `answer`: the same in words, as `csp merge` prints it.
    `count`: the solutions counted (a count), or found. `objective`: the best value found.
    `solution`: the best (or one) solution: a `Solution` for a `csp_solver.Model`, else the
    text the front end prints (FlatZinc's output lines, XCSP3's instantiation). `missing` and
    `incomplete`: the cubes without a result, and those stopped early."""

    task: str
    complete: bool
    answer: str
    count: int
    objective: Optional[int]
    solution: Any
    cubes: int
    missing: List[int] = field(default_factory=list)
    incomplete: List[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def unsatisfiable(self) -> bool:
        """Whether the model was proved to have no solution."""
        return self.complete and self.count == 0 and self.objective is None


# -- the model as the workers receive it --------------------------------------------------

_Spec = Tuple[str, Any, str]  # (kind, payload, key)


def _spec(model: Union[str, os.PathLike, Model], data: Sequence[str] = ()) -> _Spec:
    """The model as sent to the workers: its kind, its text (or pickled form), and a key
    under which each worker keeps the model it read."""
    if isinstance(model, Model):
        import pickle

        payload: Any = pickle.dumps(model)
        kind = "model"
    else:
        path = os.fspath(model)
        if path.endswith(".mzn"):
            kind, payload = "flatzinc", _compile(path, data)
        elif path.endswith(".fzn"):
            with open(path, encoding="utf-8") as f:
                kind, payload = "flatzinc", f.read()
        else:
            with open(path, "rb") as f:
                kind, payload = "xcsp3", f.read()
    raw = payload if isinstance(payload, bytes) else payload.encode("utf-8")
    return kind, payload, kind + ":" + hashlib.sha256(raw).hexdigest()


def _compile(path: str, data: Sequence[str]) -> str:
    """A MiniZinc model compiled to FlatZinc for csp, by the MiniZinc on the PATH."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "model.fzn")
        run = subprocess.run(["minizinc", "-c", "--solver", "csp", path, *data, "-o", out],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise ValueError(f"minizinc could not compile {path}: {run.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            return f.read()


#: The models this process has read, by key: a worker reads each model once.
_SOURCES: Dict[str, Any] = {}
_SOURCES_LOCK = threading.Lock()


def _source(spec: _Spec):
    kind, payload, key = spec
    with _SOURCES_LOCK:
        source = _SOURCES.get(key)
        if source is None:
            if kind == "flatzinc":
                source = _native.CubeSource.flatzinc(payload)
            elif kind == "xcsp3":
                source = _native.CubeSource.xcsp3(payload)
            else:
                import pickle

                model = pickle.loads(payload)
                objective = None
                if model._objective is not None:
                    objective = (model._objective[0].index, model._objective[1])
                source = _native.CubeSource.model(model._native, objective)
            _SOURCES.clear()  # one model at a time is enough for a worker
            _SOURCES[key] = source
        return source


# -- one cube, on a worker ----------------------------------------------------------------

def _better(a: int, b: Optional[int], minimize: bool) -> bool:
    return b is None or (a < b if minimize else a > b)


def _elsewhere(found: Dict[str, int], cube: int, minimize: bool) -> Optional[int]:
    """The best value other cubes found: never a cube's own, so that a cube searched again
    (its worker lost) finds its solutions again rather than trusting a bound it lost."""
    best = None
    for other, value in found.items():
        if int(other) != cube and _better(value, best, minimize):
            best = value
    return best


def _cube_task(spec: _Spec, line: str, run: Dict[str, Any]) -> str:
    """Searches one cube on a Dask worker; returns its result (a JSON object)."""
    from distributed import Event, Lock, Variable

    source = _source(spec)
    control = _native.CubeControl()
    cube = json.loads(line)["cube"]
    minimize = source.minimize()
    optimizing = minimize is not None
    stop = Event(run["stop"])
    best = Variable(run["best"]) if optimizing else None
    told: List[Optional[int]] = [None]

    def read_bound() -> None:
        try:
            found = best.get(timeout=5)
        except Exception:  # the scheduler is slow to answer: read it next time
            return
        value = _elsewhere(found or {}, cube, minimize)
        if value is not None and _better(value, told[0], minimize):
            told[0] = value
            control.tighten(value, minimize)

    def publish() -> None:
        own = control.best(minimize)
        if own is None or not _better(own, told[0], minimize):
            return
        with Lock(run["lock"]):
            found = best.get(timeout=5) or {}
            if _better(own, found.get(str(cube)), minimize):
                found[str(cube)] = own
                best.set(found)

    if optimizing:
        read_bound()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(POLL_SECONDS if optimizing else STOP_POLL_SECONDS):
            try:
                if stop.is_set():
                    control.cancel()
                if optimizing:
                    read_bound()
                    publish()
            except Exception:  # a scheduler gone: the search goes on without its news
                pass

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    remaining = None
    if run["deadline"] is not None:
        remaining = max(0.0, run["deadline"] - time.time())
    try:
        result = source.solve(line, count=run["count"], control=control, time_limit=remaining,
                              threads=run["threads"])
    finally:
        done.set()
        watcher.join()
    if optimizing:
        try:
            publish()
        except Exception:
            pass
    return result


# -- the run, from the client -------------------------------------------------------------

def _client(client, scheduler: Optional[str], local: Optional[int]):
    """The client to run on, and a cluster started here (closed after the run), if any."""
    from distributed import Client, LocalCluster

    if client is not None:
        if isinstance(client, str):
            return Client(client), None
        return client, None
    if scheduler is not None:
        return Client(scheduler), None
    cluster = LocalCluster(n_workers=local or os.cpu_count() or 1, threads_per_worker=1,
                           processes=True, host="127.0.0.1", dashboard_address=":0")
    return Client(cluster), cluster


def _run(model, task: str, client, *, scheduler: Optional[str], local: Optional[int],
         cubes: Optional[int], time_limit: Optional[float], threads: int,
         progress: Union[bool, Callable[[int, int], None]], data: Sequence[str]
         ) -> DistributedResult:
    from distributed import Event, Variable, as_completed

    started = time.time()
    spec = _spec(model, data)
    source = _source(spec)
    count = task == "count"
    expected = source.task(count)
    if expected != task:
        raise ValueError(f"{task}: the model asks to {expected}"
                         + (" (it has an objective)" if expected == "optimize" else
                            " (it has no objective)"))
    client, cluster = _client(client, scheduler, local)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        lines = source.split(cubes or CUBES_PER_WORKER * workers,
                             time_limit=time_limit)
        if not lines:
            # Propagation alone proved there is no solution.
            return DistributedResult(task, True, "unsatisfiable", 0, None, None, 0,
                                     seconds=time.time() - started)
        name = f"csp-{uuid.uuid4().hex}"
        run = {"stop": name + "-stop", "best": name + "-best", "lock": name + "-lock",
               "count": count, "threads": threads,
               "deadline": None if time_limit is None else started + time_limit}
        stop = Event(run["stop"], client=client)
        if task == "optimize":
            Variable(run["best"], client=client).set({})
        shipped = client.scatter(spec, broadcast=True, hash=False)
        futures = [client.submit(_cube_task, shipped, line, run, key=f"{name}-cube-{i}",
                                 retries=RETRIES, pure=False)
                   for i, line in enumerate(lines)]
        report = _progress(progress, len(futures))
        results: List[str] = []
        pending = as_completed(futures)
        try:
            for future in pending:
                try:
                    result = future.result()
                except Exception as e:  # a cube that failed past its retries: named missing
                    if not future.cancelled():
                        print(f"csp_solver.distributed: a cube failed: {e}", file=sys.stderr)
                    continue
                results.append(result)
                report(len(results))
                if task == "solve" and json.loads(result)["solutions"] > 0:
                    # The first solution ends the others.
                    stop.set()
                    client.cancel([f for f in futures if not f.done()])
                    break
                if run["deadline"] is not None and time.time() > run["deadline"] + 5:
                    stop.set()
        except KeyboardInterrupt:
            stop.set()
            client.cancel([f for f in futures if not f.done()])
        finally:
            report(None)
        merged = json.loads(_native.merge_results(results)) if results else None
    finally:
        if cluster is not None:
            client.close()
            cluster.close()
    if merged is None:
        return DistributedResult(task, False, "unknown (no cube finished)", 0, None, None,
                                 len(lines), list(range(len(lines))), [],
                                 time.time() - started)
    # A count's answer is its number: one of its solutions would read as the answer.
    solution: Any = merged["output"] if task != "count" else None
    if isinstance(model, Model) and solution is not None:
        solution = Solution(json.loads(solution))
    return DistributedResult(task, merged["complete"], merged["answer"], merged["solutions"],
                             merged["objective"], solution, merged["cubes"], merged["missing"],
                             merged["incomplete"], time.time() - started)


def _progress(progress, total: int) -> Callable[[Optional[int]], None]:
    """A callback for each cube done (`None`: the end): a bar on stderr when `progress` is
    True, the caller's function `(done, total)` when it is one, nothing otherwise."""
    if callable(progress):
        return lambda done: progress(done, total) if done is not None else None
    if not progress:
        return lambda done: None

    def bar(done: Optional[int]) -> None:
        if done is None:
            sys.stderr.write("\n")
            return
        width = 30
        filled = width * done // max(1, total)
        sys.stderr.write(f"\rcubes {done}/{total} [{'#' * filled}{' ' * (width - filled)}]")
        sys.stderr.flush()

    return bar


def count(model, client=None, *, scheduler: Optional[str] = None, local: Optional[int] = None,
          cubes: Optional[int] = None, time_limit: Optional[float] = None, threads: int = 1,
          progress: Union[bool, Callable[[int, int], None]] = False,
          data: Sequence[str] = ()) -> DistributedResult:
    """Counts every solution of `model` (a file or a `csp_solver.Model` without an objective)
    over the Dask cluster of `client` (a `dask.distributed.Client` or a scheduler's address),
    of `scheduler`, or of a local cluster of `local` workers started for the run. `cubes`:
    how many parts (default 32 per worker); `time_limit` in seconds for the whole run;
    `threads`: searches side by side per cube; `progress`: a bar on stderr, or a function
    called with `(done, total)` as cubes finish."""
    return _run(model, "count", client, scheduler=scheduler, local=local, cubes=cubes,
                time_limit=time_limit, threads=threads, progress=progress, data=data)


def solve(model, client=None, **options) -> DistributedResult:
    """One solution of `model` (no objective): the first cube to find one stops the rest.
    Options as `count`'s."""
    return _run(model, "solve", client, **_options(options))


def optimize(model, client=None, **options) -> DistributedResult:
    """The optimum of `model` (with an objective): the best value found is shared through the
    scheduler, each cube looking only for better. Options as `count`'s."""
    return _run(model, "optimize", client, **_options(options))


def _options(options: Dict[str, Any]) -> Dict[str, Any]:
    known = {"scheduler": None, "local": None, "cubes": None, "time_limit": None, "threads": 1,
             "progress": False, "data": ()}
    unknown = set(options) - set(known)
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
    known.update(options)
    return known


def main(argv: Optional[Sequence[str]] = None) -> int:
    """`python -m csp_solver.distributed count|solve|optimize FILE [DATA...]`."""
    parser = argparse.ArgumentParser(
        prog="python -m csp_solver.distributed",
        description="Count, solve or optimise a model over a Dask cluster, split into cubes.")
    parser.add_argument("task", choices=["count", "solve", "optimize"])
    parser.add_argument("file", help="a .fzn, .xml, .xml.lzma or .mzn model")
    parser.add_argument("data", nargs="*", help="MiniZinc data files (.dzn, .json)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDR", help="the Dask scheduler's address")
    where.add_argument("--local", metavar="N", type=int,
                       help="a local cluster of N workers (default: one per core)")
    parser.add_argument("--cubes", type=int, help="how many cubes (default: 32 per worker)")
    parser.add_argument("--time-limit", type=float, metavar="SECS")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        result = _run(args.file, args.task, None, scheduler=args.scheduler, local=args.local,
                      cubes=args.cubes, time_limit=args.time_limit, threads=1,
                      progress=not args.no_progress, data=args.data)
    except (OSError, ValueError) as e:
        print(f"csp_solver.distributed: {e}", file=sys.stderr)
        return 2
    print(result.answer)
    if result.solution is not None and result.task != "count":
        print(str(result.solution).rstrip("\n"))
    print(f"cubes: {result.cubes - len(result.missing)} of {result.cubes} with a result, "
          f"{result.seconds:.2f} s")
    if result.missing:
        print("missing: " + ", ".join(map(str, result.missing)))
    return 0 if result.complete else 3


if __name__ == "__main__":
    # Run as `python -m`, this file is `__main__`, whose functions Dask would pickle by value
    # (with the module's lock); the package's own copy of the module is pickled by name.
    from csp_solver import distributed as _module

    sys.exit(_module.main())
