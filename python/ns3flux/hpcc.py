"""The HPCC simulator's FCT file from a run's results.

A scenario that names that simulator's files (its "hpcc" key) or sets
"hpcc_fct" gives its results the records "hpcc_fct": one row per
background flow, as flux-run writes them to ``<results stem>-fct.txt``::

    r = ns3flux.run("examples/scenarios/hpcc-import-fat-tree.json")
    ns3flux.hpcc.write_fct(r, "fct.txt")    # for analysis/fct_analysis.py
"""

__all__ = ["fct_text", "write_fct"]

_COLUMNS = ("sip", "dip", "sport", "dport", "size", "start_ns", "fct_ns", "ideal_fct_ns")


def fct_text(results):
    """The text of the FCT file: ``sip dip sport dport size start_ns fct_ns
    ideal_fct_ns`` per flow, addresses as 8 hex digits, in the order the
    senders had their last ACK. Needs ``run(..., records=True)``."""
    records = results.get("records", {}).get("hpcc_fct")
    if records is None:
        raise ValueError("no hpcc_fct records: run a scenario with \"hpcc\" or \"hpcc_fct\" "
                         "with records=True")
    rows = zip(*(records[c] for c in _COLUMNS))
    return "".join(" ".join(str(v) for v in row) + "\n" for row in rows)


def write_fct(results, path):
    """Write fct_text(results) to path."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(fct_text(results))
