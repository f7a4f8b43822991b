"""The module's layers: one declaration, read by the layering test
(test/python/test_layout.py) and by the architecture figure's generator
(scripts/gen-architecture), so that the picture shows what the test holds.

FOLDERS: each source folder and what it may include besides itself (and
ns-3). MODEL_LAYERS: model/'s own sub-folders, lowest first; a file
includes files of its own layer and of the layers before it only.
TITLES: each layer's name in the figure.
"""

FOLDERS = {
    "model": set(),
    "helper": {"model"},
    "scenario/input": {"model"},
    "scenario/results": {"model"},
    "scenario/config": {"model", "scenario/input"},
    "scenario/run": {"model", "helper", "scenario/input", "scenario/config", "scenario/results"},
}

# The first holds what every layer uses: traffic classes, wire sizes and ECN
# marking (model/ itself), the statistics, and the MPI event ordering.
MODEL_LAYERS = [
    [".", "stats", "parallel"],
    ["link"],
    ["switch"],
    ["rdma"],
    ["collective"],
    ["workload"],
    ["flow"],
    ["scheduler"],
]

TITLES = {
    ".": "classes, wire sizes, ECN",
    "stats": "statistics",
    "parallel": "MPI ordering",
    "link": "link: Ethernet, 802.1Q, PFC",
    "switch": "switch: ECMP, buffer, queues",
    "rdma": "transport: RoCEv2, congestion control",
    "collective": "collectives",
    "workload": "jobs and tenants",
    "flow": "flow level (fluid)",
    "scheduler": "job scheduling",
    "helper": "helpers",
    "scenario/input": "input files",
    "scenario/config": "configuration",
    "scenario/results": "results",
    "scenario/run": "run",
}
