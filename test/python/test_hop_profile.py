"""bench/hop-profile.py sorts perf's functions into the ns-3 machinery they
belong to; the groups must take the functions the benchmark's table names,
and split the run's CPU time per hop without losing any of it."""

import importlib.util
import os
import subprocess
import sys

from conftest import ROOT

SCRIPT = os.path.join(ROOT, "bench", "hop-profile.py")
_spec = importlib.util.spec_from_file_location("hop_profile", SCRIPT)
hop_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hop_profile)


def test_functions_fall_into_their_groups():
    cases = {
        ("libns3-network.so.37", "ns3::Packet::AddHeader"): "headers and buffers",
        ("libns3-flux.so", "ns3::EthernetIpv4Header::Deserialize"): "headers and buffers",
        ("libns3-core.so.37", "ns3::PriorityQueueScheduler::Insert"): "event scheduling",
        ("libns3-core.so.37", "0x00000000000a206e"): "event scheduling",
        ("libns3-core.so.37", "ns3::LogComponent::IsEnabled"): "logging checks",
        ("libns3-core.so.37", "ns3::int64x64_t::Udiv"): "time arithmetic",
        ("libc.so.6", "malloc"): "packets and memory",
        ("libns3-flux.so", "ns3::Ptr<ns3::Packet>::~Ptr"): "packets and memory",
        ("libns3-point-to-point.so.37",
         "ns3::TracedCallback<ns3::Ptr<ns3::Packet const> >::operator()"): "callbacks and traces",
        ("libns3-flux.so", "ns3::FabricSwitch::ReceiveIpv4"): "model",
        ("libns3-point-to-point.so.37", "ns3::PointToPointNetDevice::Receive"): "model",
        ("[kernel.kallsyms]", "clear_page_erms"): "other",
    }
    for (dso, symbol), group in cases.items():
        assert hop_profile.group_of(dso, symbol) == group, (dso, symbol)


def test_groups_split_the_cpu_time_per_hop(tmp_path):
    report = ("    50.00%  libns3-network.so.37  [.] ns3::Packet::AddHeader\n"
              "    30.00%  libns3-flux.so        [.] ns3::FabricSwitch::ReceiveIpv4\n"
              "    10.00%  libc.so.6             [.] malloc\n")
    for mode in ("flux", "baseline"):
        (tmp_path / f"{mode}.report").write_text(report)
        (tmp_path / f"{mode}.line").write_text(f"mode={mode} cpu_us_per_hop=0.900\n")
    out = subprocess.run([sys.executable, SCRIPT, str(tmp_path), "--k=4"], check=True,
                         capture_output=True, text=True).stdout
    rows = {line[:22].strip(): line[22:].split() for line in out.splitlines()[2:]}
    # the 90 % sampled is scaled to the whole 900 ns: 500 / 300 / 100 ns
    assert rows["headers and buffers"] == ["500", "500"]
    assert rows["model"] == ["300", "300"]
    assert rows["packets and memory"] == ["100", "100"]
    assert rows["total"] == ["900", "900"]
