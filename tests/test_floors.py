"""The package's floors: the module import graph (top-level imports) has no circle, and no
import inside a function exists to dodge one.  Functions import only what an install may
lack or what costs time to import (the peers and oracles, Dask, SciPy's erf, Numba at the
first compiled use and in the CLI); methods that reach up a floor are bound from the floor
above instead."""
import ast
import pathlib

import tapegrad as tg

PKG = pathlib.Path(tg.__file__).resolve().parent
# (module, imported module): the imports a function may make, and why
LAZY = {
    "tapegrad.replay": {"tapegrad.replay.dask"},  # imports the dask library (an extra)
    "tapegrad.replay.dask": {"cloudpickle", "dask"},  # the dask extra's own dependencies
    "tapegrad.ops.elementwise": {"scipy.special", "autograd.scipy.special"},  # erf: SciPy
    #                                  costs ~0.2 s to import; HIPS autograd is the oracle
    "tapegrad.special": {"scipy.special"},  # lgamma, erfinv...: SciPy on first use, as erf
    "tapegrad.linalg": {"scipy.linalg"},  # LU, triangular solves, lstsq: SciPy on first use
    "tapegrad.ops.linalg": {"scipy.linalg"},  # F.linear's gemm (_addmm): on first use, as
    #                                  the compiled sweep's np.dot loads it
    "tapegrad.sparse.pattern": {"scipy.sparse"},  # CSR patterns: SciPy on first use
    "tapegrad.distributions.continuous": {"scipy.special"},  # gammainc for Gamma's rsample
    "tapegrad.quasirandom": {"scipy.stats"},  # Sobol points: SciPy on first use
    "tapegrad.cli": {"numpy", "tapegrad", "numba", "tapegrad.bench"},  # --help stays fast
    "tapegrad._jit": {"numba", "numba.core", "numba.core.registry"},  # ~0.3 s to import:
    #                                  at the first compiled use (issue 23)
    "tapegrad._libm": {"llvmlite", "llvmlite.binding", "numba", "numba.core"},  # Numba's,
    #                                  when it is loaded (as _jit's: issue 23)
    "tapegrad._blas": {"llvmlite", "numba.core"},  # Numba's, when its intrinsic is made
    #                                   (as _libm's)
    "tapegrad._eager": {"numpy.ma"},  # on the caller's thread before ours start (start_thread:
    #                                   its lazy import runs ast.parse; CPython 3.11's race)
    "tapegrad.ops._record": {"tapegrad.autograd.function"},  # no_derivative's node is a
    #                                  Function, whose module imports ops/
    "tapegrad.bench": {"tapegrad", "tapegrad.replay", "jax", "jax.numpy", "torch", "autograd",
                       "autograd.numpy"},  # the peers, each only when its row runs
}


def _name(path):
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module, is_pkg, node):
    """The modules an import statement names (``from . import a, b`` names a and b when
    they are modules of the package, not the package)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    if node.level:
        base = base[:len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module
    subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
    # the package itself only when a name comes from its __init__ (importing a submodule
    # runs the parent's __init__ first, but that edge is not one this module chose)
    return subs + ([target] if len(subs) < len(node.names) else [])


FILES = {_name(p): p for p in PKG.rglob("*.py")}
MODULES = set(FILES)


def _imports():
    top, inner = {}, {}
    for module, path in FILES.items():
        tree = ast.parse(path.read_text())
        is_pkg = path.name == "__init__.py"
        top[module] = set()
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                top[module].update(m for m in _resolve(module, is_pkg, node) if m in MODULES)
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        inner.setdefault(module, set()).update(_resolve(module, is_pkg, node)[:1])
    return top, inner


TOP, INNER = _imports()


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.add(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(graph.get(w, ())))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def test_the_module_import_graph_has_no_circle():
    assert _cycles(TOP) == []


def test_the_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_inside_a_function_dodges_a_circle():
    unexpected = {m: sorted(names - LAZY.get(m, set())) for m, names in INNER.items()
                  if names - LAZY.get(m, set())}
    assert unexpected == {}


def test_the_floors_below_import_nothing_above():
    """The tape and its state at the bottom, then Tensor, the ops, the compiled kernels,
    autograd, and the replay package above them."""
    floors = [{"tapegrad._state", "tapegrad.grad_mode", "tapegrad.tape", "tapegrad._jit",
               "tapegrad.dtypes", "tapegrad._fp", "tapegrad._format", "tapegrad._rules",
               "tapegrad.arena", "tapegrad.device"},
              {"tapegrad.tensor"},
              {m for m in MODULES if m.startswith("tapegrad.ops")},
              {"tapegrad._sweep"},
              {m for m in MODULES if m.startswith("tapegrad.autograd")}]
    for i, floor in enumerate(floors):
        above = set().union(*floors[i + 1:]) | {m for m in MODULES if m.startswith(
            ("tapegrad.replay", "tapegrad.nn", "tapegrad.viz", "tapegrad.optim"))}
        for m in floor:
            assert not TOP[m] & above, (m, sorted(TOP[m] & above))
