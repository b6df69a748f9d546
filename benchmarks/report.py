"""Turn pytest-benchmark JSON into markdown: per group, median ns/op and ratio vs tapegrad.

    python benchmarks/report.py /tmp/bench.json > /tmp/bench.md
    python benchmarks/report.py /tmp/bench.json --plots docs > /tmp/bench.md   # + PNGs

"vs tapegrad" is the library's median ns/op over tapegrad's in the same group (median
time when a group has no op counts): 10 means tapegrad takes a tenth of that library's
time, 0.5 that tapegrad takes twice as long.  In the replay tables the ratios are the
other way round, tapegrad's time over a reference's ("tapegrad / numba" = 1.5: tapegrad
takes 1.5 times as long as the hand-written gradient).

``--plots DIR`` also writes ``eager_ns_per_op.png`` (ns per op against graph size, per
library and phase) and ``replay_points_per_s.png`` (points per second, per library and
case) with matplotlib (``pip install -e ".[plot]"``).
"""
import argparse
import json
import os
import sys
from collections import defaultdict


def _ns_per_op(b):
    ops = b["extra_info"].get("ops") or 0
    return b["stats"]["median"] / ops * 1e9 if ops else None


def _fmt(x, digits=1):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def _library(b):
    return b["extra_info"].get("library", b["name"])


def group_tables(benchmarks):
    groups = defaultdict(list)
    for b in benchmarks:
        groups[b["group"] or b["name"]].append(b)
    out = []
    for group in sorted(groups, key=_group_key):
        rows = sorted(groups[group], key=lambda b: (_ns_per_op(b) or 0, b["stats"]["median"]))
        ref = next((b for b in rows if _library(b) == "tapegrad"), None)
        out.append(f"### {group}\n")
        out.append("| library | median ns/op | median | IQR | rounds | vs tapegrad |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for b in rows:
            s = b["stats"]
            ratio = _ratio(b, ref)
            note = " *" if b["extra_info"].get("note") else ""
            out.append(f"| {_library(b)}{note} | {_fmt(_ns_per_op(b))} | "
                       f"{_fmt_s(s['median'])} | {_fmt_s(s['iqr'])} | {s['rounds']} | "
                       f"{_fmt(ratio, 2)} |")
        notes = {b["extra_info"]["note"] for b in rows if b["extra_info"].get("note")}
        out.extend(f"\n\\* {n}" for n in sorted(notes))
        out.append("")
    return out


def _ratio(b, ref):
    """b's time over ref's: per op when both have ops (the N may differ), else per round."""
    if ref is None:
        return None
    x, r = _ns_per_op(b), _ns_per_op(ref)
    if x and r:
        return x / r
    return b["stats"]["median"] / ref["stats"]["median"]


def _fmt_rate(r):
    """Points per second, short: 9.66M, 455k."""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if r >= scale:
            return f"{r / scale:.3g}{unit}"
    return f"{r:.3g}"


def _fmt_s(sec):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if sec >= scale:
            return f"{sec / scale:.3g} {unit}"
    return f"{sec / 1e-9:.3g} ns"


def _group_key(group):
    # eager groups first, by N then phase order; then the rest alphabetically
    phases = {"forward": 0, "backward": 1, "fwd+bwd": 2}
    parts = group.split()
    if parts[:2] == ["eager", "vector"]:  # eager vector n=<n> [float32] <phase>
        return (0.5, int(parts[2][2:]), "float32" in parts, phases.get(parts[-1], 9), group)
    if parts[0] == "eager":
        return (0, int(parts[1][2:]), phases.get(parts[2], 9), group)
    if parts[0] == "replay" and parts[1] == "first":  # replay first result n=<n> <form>
        return (3, int(parts[3][2:]), parts[4] != "vector", group)
    if parts[0] == "replay":  # replay n=<n> B=10^<k>
        return (2, int(parts[1][2:]), int(parts[2].split("^")[1]), group)
    return (1, 0, 0, group)


def eager_overview(benchmarks, prefix="eager N=", title="eager scalar graph"):
    """Libraries x (N, phase): median ns/op, and tapegrad's speed-up over torch."""
    cells = {}
    cols = []
    strip = prefix.rsplit(" ", 1)[0] + " "  # the column is the group without "eager [vector] "
    for b in benchmarks:
        if not (b["group"] or "").startswith(prefix):
            continue
        col = b["group"][len(strip):]
        if col not in cols:
            cols.append(col)
        cells[_library(b), col] = _ns_per_op(b)
    if not cols:
        return []
    cols.sort(key=lambda c: _group_key(strip + c))
    libs = sorted({lib for lib, _ in cells},
                  key=lambda lib: (lib != "tapegrad", not lib.startswith("torch"), lib))
    out = [f"### {title}: median ns/op\n",
           "| library | " + " | ".join(cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for lib in libs:
        out.append(f"| {lib} | " + " | ".join(_fmt(cells.get((lib, c))) for c in cols) + " |")
    torch = next((lib for lib in libs if lib.startswith("torch")), None)
    if torch and "tapegrad" in libs:
        ratios = []
        for c in cols:
            t, p = cells.get(("tapegrad", c)), cells.get((torch, c))
            ratios.append(_fmt(p / t, 2) if t and p else "-")
        out.append(f"| **{torch} / tapegrad** | " + " | ".join(ratios) + " |")
    out.append("")
    return out


def memory_table(benchmarks):
    rows = [b for b in benchmarks if (b["group"] or "").startswith("deep chain")]
    if not rows:
        return []
    out = [f"### {rows[0]['group']}: memory\n",
           "| library | ops | record ns/op | backward ns/op | tape B/op | tracemalloc peak B/op "
           "| RSS peak B/op |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for b in rows:
        e = b["extra_info"]
        out.append(f"| {_library(b)} | {e['ops']:,} | {_fmt(e.get('record_ns_per_op'))} | "
                   f"{_fmt(e.get('backward_ns_per_op'))} | {_fmt(e.get('tape_bytes_per_op'))} | "
                   f"{_fmt(e.get('tracemalloc_bytes_per_op'))} | "
                   f"{_fmt(e.get('rss_bytes_per_op'))} |")
        extra = [k for k in e if k.startswith("rss_bytes_per_op_at_")]
        for k in extra:
            out.append(f"| {_library(b)} | {int(k.rsplit('_', 1)[1]):,} | | | | | "
                       f"{_fmt(e[k])} |")
    out.append("")
    return out


def startup_table(benchmarks):
    rows = [b for b in benchmarks if (b["group"] or "").startswith("startup")]
    if not rows:
        return []
    out = ["### start-up in a subprocess (medians, seconds)\n",
           "| cache | import | first backward | import + backward | interpreter | wall "
           "| rounds |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for b in sorted(rows, key=lambda b: b["extra_info"]["phase"], reverse=True):
        e = b["extra_info"]
        out.append(f"| {e['phase'].split('-', 1)[1]} | {e['import_s']:.3f} | "
                   f"{e['first_backward_s']:.3f} | {e['total_s']:.3f} | "
                   f"{e['interpreter_s']:.3f} | {e['wall_s']:.3f} | {e['rounds']} |")
    out.append("")
    return out


# -- replay (bench_replay.py) -------------------------------------------------------------
REPLAY_PEERS = ("tapegrad", "numba", "numba-parallel", "jax", "torch", "numpy")
HAND_WRITTEN = ("numba", "numba-parallel", "numpy")  # one form: the same code for both


def _replay_rows(benchmarks):
    """{(n, points): {(peer, form): benchmark}} for the steady-state replay groups."""
    cases = defaultdict(dict)
    for b in benchmarks:
        if (b["group"] or "").startswith("replay n="):
            e = b["extra_info"]
            cases[e["n"], e["points"]][e["peer"], e["form"]] = b
    return cases


def _replay_key(key):
    peer, form = key
    return (REPLAY_PEERS.index(peer) if peer in REPLAY_PEERS else 9, form != "vector", peer)


def _find(libs, peer, form):
    """The benchmark of ``peer`` in ``form`` (a hand-written gradient serves either form)."""
    return libs.get((peer, form)) or (libs.get((peer, "vector")) if peer in HAND_WRITTEN
                                      else None)


def replay_summary(benchmarks):
    """One row per (n, points, form): tapegrad's median and points/s, the peers' medians,
    and tapegrad's time over the hand-written Numba gradients' and JAX's."""
    cases = _replay_rows(benchmarks)
    if not cases:
        return []
    peers = [("numba", "numba 1 core"), ("numba-parallel", "numba parallel"),
             ("jax", "jax (steady)"), ("torch", "torch.func"), ("numpy", "numpy")]
    refs = ("numba", "numba-parallel", "jax")
    out = ["### replayed batch gradients: extended Rosenbrock (medians)\n",
           "| n | points | form | tapegrad | points/s | " + " | ".join(p[1] for p in peers) +
           " | tapegrad / numba 1 core | tapegrad / numba parallel | tapegrad / jax |",
           "|---:|---:|---|" + "---:|" * (len(peers) + 5)]
    for (n, points) in sorted(cases):
        libs = cases[n, points]
        for form in ("vector", "loop"):
            tg = libs.get(("tapegrad", form))
            if tg is None:
                continue
            t = tg["stats"]["median"]
            meds = {p: (_find(libs, p, form) or {}).get("stats", {}).get("median")
                    for p, _ in peers}
            cells = [_fmt_s(meds[p]) if meds[p] else "-" for p, _ in peers]
            ratios = [_fmt(t / meds[p], 2) if meds[p] else "-" for p in refs]
            out.append(f"| {n} | {points:,} | {form} | **{_fmt_s(t)}** | "
                       f"{_fmt_rate(points / t)} | " + " | ".join(cells + ratios) + " |")
    out.append("\nnumba and numpy are hand-written analytic gradients (one form: the same "
               "figure in both rows); jax is `jit(vmap(grad))` after its compile, with the "
               "input already on the device. Ratios are tapegrad's time over the peer's.\n")
    return out


def replay_tables(benchmarks):
    """Per (n, points): every library's median, ns and points per second, first call."""
    cases = _replay_rows(benchmarks)
    out = []
    for (n, points) in sorted(cases):
        libs = cases[n, points]
        ref = libs.get(("tapegrad", "vector"))
        out += [f"### replay n={n}, {points:,} points\n",
                "| library | median | ns/point | points/s | first call | threads | IQR | rounds "
                "| vs tapegrad |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for key in sorted(libs, key=_replay_key):
            b = libs[key]
            lib, s, e = _library(b), b["stats"], b["extra_info"]
            first = e.get("first_call_s")
            ratio = s["median"] / ref["stats"]["median"] if ref else None
            out.append(f"| {lib} | {_fmt_s(s['median'])} | {_fmt(s['median'] / points * 1e9)} | "
                       f"{_fmt_rate(points / s['median'])} | {_fmt_s(first) if first else '-'} | "
                       f"{e.get('threads') or '-'} | {_fmt_s(s['iqr'])} | {s['rounds']} | "
                       f"{_fmt(ratio, 2)} |")
        tape = next((b["extra_info"]["tape"] for b in libs.values() if "tape" in b["extra_info"]
                     and b["extra_info"]["form"] == "loop"), None)
        if tape:
            out.append(f"\ntapegrad's loop tape: {tape['rows']:,} rows, {tape['values']:,} values "
                       f"per point, {tape['bytes']:,} bytes")
        out.append("")
    return out


def first_result_table(benchmarks):
    """From a new function to its first gradient: tapegrad (one point, a batch), JAX, torch."""
    rows = [b for b in benchmarks if (b["group"] or "").startswith("replay first result")]
    if not rows:
        return []
    names = []
    cells = {}
    for b in rows:
        e = b["extra_info"]
        if _library(b) not in names:
            names.append(_library(b))
        cells[e["n"], e["form"], _library(b)] = b
    names.sort(key=lambda lib: (not lib.startswith("tapegrad"), lib))
    points = next((b["extra_info"]["points"] for b in rows if b["extra_info"]["points"] > 1), 0)
    out = [f"### trace to first result: a new function, then its first gradient (medians; "
           f"batches of {points:,} points)\n",
           "| n | form | " + " | ".join(names) + " |",
           "|---:|---|" + "---:|" * len(names)]
    for n, form in sorted({(k[0], k[1]) for k in cells}, key=lambda k: (k[0], k[1] != "vector")):
        out.append(f"| {n} | {form} | " + " | ".join(
            _fmt_s(cells[n, form, lib]["stats"]["median"]) if (n, form, lib) in cells else "-"
            for lib in names) + " |")
    out.append("")
    return out


# -- plots --------------------------------------------------------------------------------
def plot_eager(benchmarks, path, plt):
    """ns per op against graph size (log-log), one line per library, one panel per phase."""
    series = defaultdict(dict)  # (phase, library) -> {N: ns/op}
    for b in benchmarks:
        parts = (b["group"] or "").split()
        if len(parts) == 3 and parts[0] == "eager":
            series[parts[2], _library(b)][int(parts[1][2:])] = _ns_per_op(b)
    phases = [p for p in ("forward", "backward", "fwd+bwd") if any(k[0] == p for k in series)]
    if not phases:
        return None
    libs = sorted({lib for _, lib in series}, key=lambda lib: (lib != "tapegrad", lib))
    colors = {lib: f"C{i}" for i, lib in enumerate(libs)}
    fig, axes = plt.subplots(1, len(phases), figsize=(4.2 * len(phases), 3.8), sharey=True)
    for ax, phase in zip(list(axes) if len(phases) > 1 else [axes], phases, strict=True):
        for lib in libs:
            pts = sorted(series.get((phase, lib), {}).items())
            if pts:
                ax.plot(*zip(*pts, strict=True), "o-", color=colors[lib], label=lib,
                        lw=2.5 if lib == "tapegrad" else 1.2)
        ax.set(xscale="log", yscale="log", title=f"eager {phase}", xlabel="ops in the graph")
        ax.grid(True, which="both", alpha=0.3)
    (axes[0] if len(phases) > 1 else axes).set_ylabel("median ns per op (lower is better)")
    handles, labels = (axes[0] if len(phases) > 1 else axes).get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(libs), 6), fontsize=8,
               frameon=False)
    fig.suptitle("y = y * a + sin(y) * b: scalar graph", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def plot_replay(benchmarks, path, plt):
    """Points per second per library (log scale), one panel per (n, points)."""
    cases = _replay_rows(benchmarks)
    if not cases:
        return None
    keys = sorted(cases)
    cols = len({n for n, _ in keys})
    rows_ = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(rows_, cols, figsize=(6.2 * cols, 3.2 * rows_), squeeze=False)
    for ax, (n, points) in zip(axes.T.ravel(), keys, strict=False):
        order = sorted(cases[n, points], key=_replay_key, reverse=True)
        bms = [cases[n, points][k] for k in order]
        rate = [points / b["stats"]["median"] for b in bms]
        color = ["C3" if peer == "tapegrad" else "0.55" if peer in HAND_WRITTEN else "C0"
                 for peer, _ in order]
        ax.barh(range(len(order)), rate, color=color)
        ax.set_yticks(range(len(order)), [_library(b) for b in bms], fontsize=8)
        for i, r in enumerate(rate):
            ax.text(r, i, f" {_fmt_rate(r)}/s", va="center", fontsize=7)
        ax.set(xscale="log", title=f"n = {n}, {points:,} points")
        ax.set_xlim(right=max(rate) * 8)
        ax.grid(True, axis="x", which="major", alpha=0.3)
    for ax in axes.ravel()[len(keys):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("gradients per second (higher is better)")
    fig.suptitle("Rosenbrock gradients at a batch of points: tapegrad (red), AD peers (blue), "
                 "hand-written gradients (grey)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


def write_plots(benchmarks, outdir):
    """Both PNGs into outdir; returns the paths written (none without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: no matplotlib, no plots (pip install -e '.[plot]')", file=sys.stderr)
        return []
    os.makedirs(outdir, exist_ok=True)
    made = [plot_eager(benchmarks, os.path.join(outdir, "eager_ns_per_op.png"), plt),
            plot_replay(benchmarks, os.path.join(outdir, "replay_points_per_s.png"), plt)]
    return [p for p in made if p]


def main(path, plots=None):
    data = json.load(open(path))
    bms = data["benchmarks"]
    info = data.get("machine_info", {})
    load = [info.get("loadavg_start"), info.get("loadavg_end")]
    load = " -> ".join("/".join(f"{x:.1f}" for x in la) for la in load if la)
    versions = ", ".join(f"{k} {v}" for k, v in info.get("peer_versions", {}).items())
    lines = [f"Run {data.get('datetime', '')} on {info.get('cpu', {}).get('brand_raw', '?')} "
             f"({info.get('cpu_count', '?')} cores; load average {load or '?'}), "
             f"Python {info.get('python_version', '?')}; {versions}\n"]
    lines += (eager_overview(bms) + eager_overview(bms, "eager vector ", "eager vector graph") +
              replay_summary(bms) + first_result_table(bms) +
              memory_table(bms) + startup_table(bms) + replay_tables(bms) +
              group_tables([b for b in bms if not (b["group"] or "").startswith("replay")]))
    if plots:
        lines += [f"![{os.path.basename(p)}]({p})" for p in write_plots(bms, plots)]
    print("\n".join(lines))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="pytest-benchmark JSON to markdown (and PNGs)")
    parser.add_argument("results", nargs="?", default="/tmp/bench.json")
    parser.add_argument("--plots", metavar="DIR", help="also write PNG plots into DIR")
    args = parser.parse_args()
    main(args.results, args.plots)
