"""Turn pytest-benchmark JSON into markdown: per group, median ns/op and ratio vs tapegrad.

    python benchmarks/report.py /tmp/bench.json > /tmp/bench.md

"vs tapegrad" is the library's median ns/op over tapegrad's in the same group (median
time when a group has no op counts): 10 means tapegrad takes a tenth of that library's
time, 0.5 that tapegrad takes twice as long.
"""
import json
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


def _fmt_s(sec):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if sec >= scale:
            return f"{sec / scale:.3g} {unit}"
    return f"{sec / 1e-9:.3g} ns"


def _group_key(group):
    # eager groups first, by N then phase order; then the rest alphabetically
    phases = {"forward": 0, "backward": 1, "fwd+bwd": 2}
    parts = group.split()
    if parts[0] == "eager":
        return (0, int(parts[1][2:]), phases.get(parts[2], 9), group)
    return (1, 0, 0, group)


def eager_overview(benchmarks):
    """Libraries x (N, phase): median ns/op, and tapegrad's speed-up over torch."""
    cells = {}
    cols = []
    for b in benchmarks:
        if not (b["group"] or "").startswith("eager "):
            continue
        col = b["group"][len("eager "):]
        if col not in cols:
            cols.append(col)
        cells[_library(b), col] = _ns_per_op(b)
    if not cols:
        return []
    cols.sort(key=lambda c: _group_key("eager " + c))
    libs = sorted({lib for lib, _ in cells},
                  key=lambda lib: (lib != "tapegrad", not lib.startswith("torch"), lib))
    out = ["### eager scalar graph: median ns/op\n",
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


def main(path):
    data = json.load(open(path))
    bms = data["benchmarks"]
    info = data.get("machine_info", {})
    load = [info.get("loadavg_start"), info.get("loadavg_end")]
    load = " -> ".join("/".join(f"{x:.1f}" for x in la) for la in load if la)
    versions = ", ".join(f"{k} {v}" for k, v in info.get("peer_versions", {}).items())
    lines = [f"Run {data.get('datetime', '')} on {info.get('cpu', {}).get('brand_raw', '?')} "
             f"({info.get('cpu_count', '?')} cores; load average {load or '?'}), "
             f"Python {info.get('python_version', '?')}; {versions}\n"]
    lines += eager_overview(bms) + memory_table(bms) + startup_table(bms) + group_tables(bms)
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bench.json")
