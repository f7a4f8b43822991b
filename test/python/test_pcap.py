"""flux-run --pcap: the host pcaps are Ethernet captures that tshark decodes
as RoCEv2 (BTH opcodes, destination QPs, PSNs), 802.1Q priorities and PFC
frames, and they agree with the results file."""

import json
import shutil
import subprocess
from collections import defaultdict

import pytest

import ns3flux

# Seven senders under one switch each send 1 MB to host 0 at the same time:
# the switch port to host 0 congests, ECN marks make host 0 send CNPs, and
# the switch pauses the senders' links with PFC.
INCAST = {
    "seed": 1,
    # A 2 MB buffer: the incast fills the shared pool and raises PFC.
    "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8,
                 "buffer_mb": 2},
    "background": [
        {"name": "burst", "pattern": "incast", "senders": [1, 2, 3, 4, 5, 6, 7],
         "receiver": 0, "bytes": 1000000, "start_ms": 0.01}
    ],
}
HOSTS = 8

FIELDS = [
    "frame.number", "eth.src", "eth.dst", "eth.type", "vlan.priority", "ip.src", "ip.dst",
    "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
    "macc.opcode", "macc.cbfc.enbv", "macc.cbfc.pause_time.c3",
]

SEND = {0x00: "first", 0x01: "middle", 0x02: "last", 0x03: "last", 0x04: "only", 0x05: "only"}
WRITE = {0x06: "first", 0x07: "middle", 0x08: "last", 0x09: "last", 0x0A: "only", 0x0B: "only"}
ACK, CNP = 0x11, 0x81
PFC_OPCODE = 0x0101


def _int(text):
    return int(text, 0) if text else None


def _decode(pcap):
    """One dict per frame with FIELDS (ints where numeric, None if absent)."""
    p = subprocess.run(
        ["tshark", "-r", str(pcap), "-T", "fields", "-E", "separator=\t",
         "-E", "occurrence=f"] + sum((["-e", f] for f in FIELDS), []),
        capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    frames = []
    for line in p.stdout.splitlines():
        values = line.split("\t")
        values += [""] * (len(FIELDS) - len(values))
        f = dict(zip(FIELDS, values))
        for k in ("eth.type", "vlan.priority", "infiniband.bth.opcode",
                  "infiniband.bth.destqp", "infiniband.bth.psn", "macc.opcode",
                  "macc.cbfc.enbv", "macc.cbfc.pause_time.c3"):
            f[k] = _int(f[k])
        frames.append(f)
    return frames


def _address(host):
    return f"10.0.0.{host + 1}"


@pytest.fixture(scope="module")
def capture(tmp_path_factory, flux_run):
    """Runs the incast with --pcap and decodes every host pcap once."""
    if shutil.which("tshark") is None:
        pytest.fail("tshark not found (Debian: apt-get install tshark)")
    work = tmp_path_factory.mktemp("pcap")
    scen = work / "incast.json"
    scen.write_text(json.dumps(INCAST))
    p = flux_run(scen, "--pcap", work / "pcap", "--out", work / "res.json", "--quiet")
    assert p.returncode == 0, p.stderr
    results = json.loads((work / "res.json").read_text())
    frames = {}
    for h in range(HOSTS):
        pcap = work / "pcap" / f"host{h}.pcap"
        assert pcap.stat().st_size > 24, f"{pcap} is empty"
        frames[h] = _decode(pcap)
    return results, frames


def _sent(frames, host):
    """RoCEv2 frames a host sent (its own pcap holds both directions)."""
    return [f for f in frames[host] if f["ip.src"] == _address(host)
            and f["infiniband.bth.opcode"] is not None]


def test_one_pcap_per_host_decoded_as_rocev2(capture):
    """Every host pcap decodes as Ethernet with RoCEv2 inside: each sender's
    capture holds RoCEv2 frames it sent to host 0 and RoCEv2 frames from
    host 0, all VLAN-tagged (EtherType 0x8100)."""
    _, frames = capture
    for h in range(1, HOSTS):
        roce = [f for f in frames[h] if f["infiniband.bth.opcode"] is not None]
        assert any(f["ip.src"] == _address(h) and f["ip.dst"] == _address(0) for f in roce)
        assert any(f["ip.src"] == _address(0) and f["ip.dst"] == _address(h) for f in roce)
        assert all(f["eth.type"] == 0x8100 for f in roce)


def test_data_opcodes_form_messages(capture):
    """Data frames carry RC SEND or RDMA WRITE opcodes (first/middle/last/
    only), and per queue pair they form whole messages: first, middles,
    last (or a single only), of one family, and every sender's messages add
    up to the bytes it was told to send."""
    _, frames = capture
    for h in range(1, HOSTS):
        by_qp = defaultdict(list)
        for f in _sent(frames, h):
            op = f["infiniband.bth.opcode"]
            if op in (ACK, CNP):
                continue
            assert op in SEND or op in WRITE, f"host{h}: unexpected opcode {op:#x}"
            by_qp[f["infiniband.bth.destqp"]].append(op)
        assert by_qp, f"host{h} sent no data"
        for qp, ops in by_qp.items():
            family = SEND if ops[0] in SEND else WRITE
            state = "idle"
            messages = 0
            for op in ops:
                assert op in family, f"host{h} qp {qp}: SEND and WRITE opcodes mixed"
                kind = family[op]
                if state == "idle":
                    assert kind in ("first", "only"), f"host{h} qp {qp}: {kind} outside a message"
                    state = "in" if kind == "first" else "idle"
                    messages += kind == "only"
                else:
                    assert kind in ("middle", "last"), f"host{h} qp {qp}: {kind} inside a message"
                    if kind == "last":
                        state = "idle"
                        messages += 1
            assert state == "idle" and messages >= 1, f"host{h} qp {qp}: unfinished message"
        # 1 MB in 4096-byte payloads: ceil(1e6 / 4096) = 245 data packets.
        assert sum(len(ops) for ops in by_qp.values()) == 245


def test_psns_increase_by_one(capture):
    """With no retransmission in the run, the PSNs of the data frames of each
    queue pair (destination QP) increase by exactly one per packet, modulo
    2^24, so the first transmission numbers packets consecutively."""
    results, frames = capture
    assert results["network"]["retransmissions"] == 0
    for h in range(1, HOSTS):
        by_qp = defaultdict(list)
        for f in _sent(frames, h):
            if f["infiniband.bth.opcode"] not in (ACK, CNP):
                by_qp[f["infiniband.bth.destqp"]].append(f["infiniband.bth.psn"])
        for qp, psns in by_qp.items():
            assert len(psns) > 1
            steps = {(b - a) % (1 << 24) for a, b in zip(psns, psns[1:])}
            assert steps == {1}, f"host{h} qp {qp}: PSN steps {sorted(steps)[:5]}"


def test_dest_qps_consistent(capture):
    """Each sender's data goes to one destination QP at host 0, and the ACKs
    (opcode 0x11) and CNPs (0x81) host 0 returns to that sender all name one
    destination QP, the sender's; ACKs acknowledge PSNs that were sent."""
    _, frames = capture
    for h in range(1, HOSTS):
        data_qps = {f["infiniband.bth.destqp"] for f in _sent(frames, h)
                    if f["infiniband.bth.opcode"] not in (ACK, CNP)}
        assert len(data_qps) == 1
        data_psns = {f["infiniband.bth.psn"] for f in _sent(frames, h)
                     if f["infiniband.bth.opcode"] not in (ACK, CNP)}
        back = [f for f in frames[h] if f["ip.src"] == _address(0)
                and f["ip.dst"] == _address(h)]
        acks = [f for f in back if f["infiniband.bth.opcode"] == ACK]
        cnps = [f for f in back if f["infiniband.bth.opcode"] == CNP]
        assert acks, f"host{h} got no ACK"
        assert len({f["infiniband.bth.destqp"] for f in acks + cnps}) == 1
        assert {f["infiniband.bth.psn"] for f in acks} <= data_psns


def test_cnps_match_results(capture):
    """The CNP frames (opcode 0x81) that hosts sent, counted in their pcaps,
    are as many as the results file's network.cnps, and there are some."""
    results, frames = capture
    sent = sum(1 for h in range(HOSTS) for f in _sent(frames, h)
               if f["infiniband.bth.opcode"] == CNP)
    assert sent == results["network"]["cnps"]
    assert sent > 0


def test_priorities_on_the_wire(capture):
    """Data frames carry 802.1Q priority 3 (the default data class), ACK and
    CNP frames priority 7 (the control class)."""
    _, frames = capture
    for h in range(HOSTS):
        for f in frames[h]:
            op = f["infiniband.bth.opcode"]
            if op is None:
                continue
            expected = 7 if op in (ACK, CNP) else 3
            assert f["vlan.priority"] == expected, (h, f["frame.number"], op, f["vlan.priority"])


def test_pfc_frames_from_the_switch(capture):
    """Senders receive PFC frames (MAC control, opcode 0x0101) from their
    switch: untagged, to 01:80:c2:00:00:01, from a MAC that is not the
    host's own, with priority 3's class-enable bit set; the pausing ones
    (quanta > 0) are at least as many as the results' network.pfc_pauses,
    which is positive."""
    results, frames = capture
    xoff = 0
    for h in range(HOSTS):
        own = {f["eth.src"] for f in frames[h] if f["ip.src"] == _address(h)}
        for f in frames[h]:
            if f["macc.opcode"] is None:
                continue
            assert f["macc.opcode"] == PFC_OPCODE
            assert f["eth.dst"] == "01:80:c2:00:00:01"
            assert f["eth.src"] not in own, "a host sent a PFC frame"
            assert f["vlan.priority"] is None, "PFC frames are never VLAN-tagged"
            assert f["macc.cbfc.enbv"] & (1 << 3), f"enable vector {f['macc.cbfc.enbv']:#x}"
            if f["macc.cbfc.pause_time.c3"] > 0:
                xoff += 1
    assert results["network"]["pfc_pauses"] > 0
    assert xoff >= results["network"]["pfc_pauses"]


# HPCC: three senders, one switch; data frames carry 44 INT bytes (4-byte
# fixed part, 5 hop records of 8 bytes) after the BTH, ACKs echo them after
# the AETH.
HPCC_INCAST = {
    "seed": 1,
    "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 4},
    "transport": {"cc": "hpcc"},
    "background": [
        {"name": "burst", "pattern": "incast", "senders": [1, 2, 3],
         "receiver": 0, "bytes": 100000, "start_ms": 0.01}
    ],
}
INT_BYTES = 44
HPCC_FIELDS = ["frame.len", "ip.dsfield.dscp", "infiniband.bth.opcode", "infiniband.bth.psn",
               "infiniband.aeth.syndrome", "_ws.malformed", "_ws.expert.severity"]


def test_hpcc_frames_decode_with_int(tmp_path, flux_run):
    """With transport.cc "hpcc", tshark decodes every RoCEv2 frame of the
    hosts' pcaps without a malformed or error flag: data frames show their
    BTH (the INT is the start of the payload), are 44 bytes longer than
    without INT and set DSCP bit 0; ACKs show BTH and AETH, are 44 bytes
    longer, and set DSCP bit 1."""
    if shutil.which("tshark") is None:
        pytest.fail("tshark not found (Debian: apt-get install tshark)")
    scen = tmp_path / "hpcc.json"
    scen.write_text(json.dumps(HPCC_INCAST))
    p = flux_run(scen, "--pcap", tmp_path / "pcap", "--out", tmp_path / "res.json", "--quiet")
    assert p.returncode == 0, p.stderr
    data = acks = 0
    for h in range(4):
        out = subprocess.run(
            ["tshark", "-r", str(tmp_path / "pcap" / f"host{h}.pcap"), "-T", "fields",
             "-E", "separator=\t", "-E", "occurrence=f"]
            + sum((["-e", f] for f in HPCC_FIELDS), []),
            capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        for line in out.stdout.splitlines():
            values = line.split("\t") + [""] * len(HPCC_FIELDS)
            f = dict(zip(HPCC_FIELDS, values))
            assert f["_ws.malformed"] == "", line
            assert f["_ws.expert.severity"] in ("", str(0x00200000)), line  # chat at most
            op = _int(f["infiniband.bth.opcode"])
            if op is None:
                continue
            length, dscp = int(f["frame.len"]), int(f["ip.dsfield.dscp"])
            if op == ACK:
                assert f["infiniband.aeth.syndrome"] != "", line
                assert dscp & 2 and length == 18 + 20 + 8 + 12 + 4 + INT_BYTES + 4, line
                acks += 1
            elif op in SEND:
                # 100000 B = 24 full packets and one of 1696 B per sender
                payload = 4096 if length > 2000 else 100000 - 24 * 4096
                assert dscp & 1 and length == 18 + 20 + 8 + 12 + INT_BYTES + payload + 4, line
                data += 1
    # each data packet is seen in its sender's pcap and the receiver's
    assert data == 2 * 3 * 25
    assert acks >= 2 * 3 * 25 // 2


def _records(pcap):
    """(time ns, captured length, frame length) of each record of a pcap,
    read with the pcap format's own layout; flux's timestamps are in
    nanoseconds (magic 0xa1b23c4d)."""
    import struct
    data = pcap.read_bytes()
    magic, = struct.unpack_from("<I", data, 0)
    assert magic == 0xA1B23C4D, hex(magic)
    snaplen, = struct.unpack_from("<I", data, 16)
    out, pos = [], 24
    while pos < len(data):
        sec, nsec, incl, orig = struct.unpack_from("<IIII", data, pos)
        assert nsec < 1000000000
        out.append((sec * 1000000000 + nsec, incl, orig))
        pos += 16 + incl
    return snaplen, out


def test_pcap_narrowed_by_hosts_snap_length_and_window(tmp_path, flux_run, capture):
    """--pcap-hosts writes only the hosts listed; --pcap-snaplen keeps at
    most that many bytes of each frame while the record still gives the
    frame's length, and tshark still decodes the BTH; --pcap-window keeps
    exactly the frames of the whole capture that fall within it."""
    _, frames = capture
    scen = tmp_path / "incast.json"
    scen.write_text(json.dumps(INCAST))
    full = tmp_path / "full"
    narrow = tmp_path / "narrow"
    p = flux_run(scen, "--pcap", full, "--pcap-hosts", "0,2-3", "--out", tmp_path / "a.json",
                 "--quiet")
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in full.iterdir()) == ["host0.pcap", "host2.pcap", "host3.pcap"]
    p = flux_run(scen, "--pcap", narrow, "--pcap-hosts", "0", "--pcap-snaplen", "128",
                 "--pcap-window", "0.05:0.1", "--out", tmp_path / "b.json", "--quiet")
    assert p.returncode == 0, p.stderr
    _, whole = _records(full / "host0.pcap")
    snaplen, cut = _records(narrow / "host0.pcap")
    assert snaplen == 128
    inside = [r for r in whole if 50000 <= r[0] < 100000]
    assert 0 < len(inside) < len(whole)
    assert [(t, orig) for t, _, orig in cut] == [(t, orig) for t, _, orig in inside]
    assert all(incl == min(128, orig) for _, incl, orig in cut)
    decoded = _decode(narrow / "host0.pcap")
    assert sum(f["infiniband.bth.opcode"] is not None for f in decoded) > 0


def test_pcap_timestamps_resolve_frames_at_line_rate(tmp_path, flux_run):
    """Timestamps are in nanoseconds: the data frames the incast's receiver
    takes in back to back are each at least their own time on its 100 Gb/s
    line after the one before (microseconds would give most of them the
    same time as their predecessor)."""
    scen = tmp_path / "incast.json"
    incast = json.loads(json.dumps(INCAST))
    incast["topology"]["host_gbps"] = 100
    scen.write_text(json.dumps(incast))
    p = flux_run(scen, "--pcap", tmp_path / "pcap", "--pcap-hosts", "0", "--out",
                 tmp_path / "r.json", "--quiet")
    assert p.returncode == 0, p.stderr
    _, records = _records(tmp_path / "pcap" / "host0.pcap")
    data = [(t, orig) for t, _, orig in records if orig > 1000]  # host 0 only receives data
    assert len(data) > 1000
    gaps = [(b[0] - a[0], b[1] * 8 / 100) for a, b in zip(data, data[1:])]
    assert all(gap >= line_ns - 1 for gap, line_ns in gaps), min(gaps)
    assert sum(gap < 1000 for gap, _ in gaps) > len(gaps) // 2  # back to back


@pytest.mark.parametrize("args, field", [
    (["--pcap-hosts", "0"], "--pcap-hosts"),
    (["--pcap", "P", "--pcap-hosts", "0,99"], "--pcap-hosts"),
    (["--pcap", "P", "--pcap-hosts", "3-1"], "--pcap-hosts"),
    (["--pcap", "P", "--pcap-snaplen", "10"], "--pcap-snaplen"),
    (["--pcap", "P", "--pcap-window", "2:1"], "--pcap-window"),
    (["--pcap", "P", "--pcap-window", "x"], "--pcap-window"),
    (["--pcap", "P", "--pcap-window", "-1:2"], "--pcap-window"),
    (["--pcap", "P", "--pcap-window", "100000:"], "--pcap-window"),
])
def test_bad_pcap_options_name_the_option(tmp_path, flux_run, args, field):
    """A bad capture option exits 2 with one line naming it, before any
    folder or file is made."""
    scen = tmp_path / "incast.json"
    scen.write_text(json.dumps(INCAST))
    args = [str(tmp_path / "pcap") if a == "P" else a for a in args]
    p = flux_run(scen, *args, "--out", tmp_path / "r.json")
    assert p.returncode == 2
    assert p.stderr.startswith(f"flux-run: {field}: ") and p.stderr.count("\n") == 1
    assert sorted(f.name for f in tmp_path.iterdir()) == ["incast.json"]


def test_an_unwritable_pcap_file_is_one_line_not_an_abort(tmp_path, flux_run):
    """A pcap file that cannot be written (here a folder in its place) ends
    flux-run with one error line naming --pcap and exit 2, and ns3flux.run with a
    ScenarioError naming pcap_dir: before the run, no results, and the
    interpreter lives on (it was an abort, status 134)."""
    scen = tmp_path / "incast.json"
    scen.write_text(json.dumps(INCAST))
    (tmp_path / "pcap" / "host0.pcap").mkdir(parents=True)
    p = flux_run(scen, "--pcap", tmp_path / "pcap", "--out", tmp_path / "r.json")
    assert p.returncode == 2, p.stderr
    # (after the line that states the expected size)
    assert p.stderr.splitlines()[-1].startswith("flux-run: --pcap: cannot write "), p.stderr
    assert len([line for line in p.stderr.splitlines() if "cannot" in line]) == 1
    assert not (tmp_path / "r.json").exists()
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.run(INCAST, pcap_dir=tmp_path / "pcap", cache=False)
    assert err.value.field == "pcap_dir" and "host0.pcap" in err.value.problem
    (tmp_path / "file").write_text("")
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.run(INCAST, pcap_dir=tmp_path / "file", cache=False)
    assert err.value.field == "pcap_dir" and err.value.problem.startswith("cannot create")


def test_the_stated_pcap_size_bounds_a_mixed_rate_fabric(tmp_path, flux_run):
    """The size flux-run states before a capture is an upper bound at each
    captured host's own line rate: on a "links" fabric whose first host has
    10 Gb/s and the captured one 400 Gb/s, a 0.1 ms window holds at most
    the stated MB per ms times 0.1, and more than a tenth of it (the link
    is busy)."""
    scenario = {"seed": 1, "stop_ms": 100,
                "topology": {"kind": "links", "nodes": 5, "switch_nodes": [4], "links": [
                    {"a": 0, "b": 4, "gbps": 10}, {"a": 1, "b": 4, "gbps": 400},
                    {"a": 2, "b": 4, "gbps": 400}, {"a": 3, "b": 4, "gbps": 400}]},
                "jobs": [{"name": "j", "ranks": 3, "hosts": [1, 2, 3], "bytes": 30000000,
                          "compute_ms": 0.1, "iterations": 1}]}
    scen = tmp_path / "mixed.json"
    scen.write_text(json.dumps(scenario))
    p = flux_run(scen, "--pcap", tmp_path / "pcap", "--pcap-hosts", "1", "--pcap-window",
                 "0.2:0.3", "--out", tmp_path / "r.json")
    assert p.returncode == 0, p.stderr
    stated = float(p.stderr.split("up to ")[1].split(" MB per simulated ms")[0])
    size = (tmp_path / "pcap" / "host1.pcap").stat().st_size / 1e6
    assert stated * 0.1 / 10 < size <= stated * 0.1, (stated, size)
    # a short snap length: a size under 10 MB per ms is stated, not rounded to 0
    p = flux_run(scen, "--pcap", tmp_path / "short", "--pcap-hosts", "1", "--pcap-window",
                 "0.2:0.3", "--pcap-snaplen", "64", "--out", tmp_path / "r.json")
    assert p.returncode == 0, p.stderr
    stated = float(p.stderr.split("up to ")[1].split(" MB per simulated ms")[0])
    size = (tmp_path / "short" / "host1.pcap").stat().st_size / 1e6
    assert 0 < stated < 10 and stated * 0.1 / 10 < size <= stated * 0.1, (stated, size)
