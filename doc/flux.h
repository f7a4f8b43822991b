/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \defgroup flux Flux: RoCEv2 fabrics and multi-tenant training
 *
 * RoCEv2 (RDMA) hosts on a lossless PFC/ECN fabric, training jobs whose
 * ring-allreduce phases run over RDMA, background tenants, and job
 * schedulers (the Flux scheduler and its baselines). The model has four
 * layers, each talking only to the one below it (link, fabric, transport,
 * workload); schedulers hook into the workload and the fabric; helpers build
 * the layers, and the scenario application builds whole experiments from
 * JSON. See doc/flux.rst.
 */

/**
 * \defgroup flux-link Link layer
 * \ingroup flux
 * PFC-capable point-to-point Ethernet ports and links, 802.1Q and 802.1Qbb
 * headers.
 */

/**
 * \defgroup flux-switch Fabric
 * \ingroup flux
 * Switches: forwarding, ECMP, the shared-buffer MMU, PFC and ECN, egress
 * queue discs.
 */

/**
 * \defgroup flux-rdma Transport
 * \ingroup flux
 * The RoCEv2 NIC, reliable-connection queue pairs, InfiniBand transport
 * headers, congestion control (DCQCN, HPCC).
 */

/**
 * \defgroup flux-collective Collectives
 * \ingroup flux
 * Collective operations (all-reduce, all-gather, reduce-scatter,
 * all-to-all, broadcast, barrier, send) and their algorithms over RDMA and
 * the servers' GPU interconnect, and the library that names them.
 */

/**
 * \defgroup flux-workload Workload
 * \ingroup flux
 * Collectives, training jobs and background tenants.
 */

/**
 * \defgroup flux-scheduler Job scheduling
 * \ingroup flux
 * Job schedulers (fifo, cassini, crux, flux), the gates they hold steps
 * with, and the Flux queue discipline.
 */

/**
 * \defgroup flux-stats Statistics
 * \ingroup flux
 * Summaries of measured samples.
 */

/**
 * \defgroup flux-parallel Several processes
 * \ingroup flux
 * A fabric split over MPI processes with ns-3's distributed simulator:
 * which nodes a process simulates, frames and notices between processes,
 * an event order that does not depend on the split, results to rank 0.
 */

/**
 * \defgroup flux-helper Helpers
 * \ingroup flux
 * Builders in ns-3's helper style: links, fabrics, NICs, training jobs.
 */

/**
 * \defgroup flux-scenario Scenario application
 * \ingroup flux
 * Scenario files: reading them and the files they name (scenario/input/),
 * checking them (scenario/config/), building and running the experiment
 * they describe (scenario/run/), and writing its results
 * (scenario/results/). The programs flux-run and the Python
 * module ns3flux are this application's two front ends.
 */

/**
 * \defgroup flux-tests Tests
 * \ingroup flux
 * \ingroup tests
 * The module's TestSuites.
 */
