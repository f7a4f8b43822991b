/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRACE_IS_EMPTY_H
#define TRACE_IS_EMPTY_H

namespace ns3
{

/**
 * \ingroup flux
 * \brief Whether no sink is connected to a trace source, so that a hot path
 * may skip building what it would report.
 *
 * TracedCallback::IsEmpty() exists from ns-3 3.37 on; on older releases a
 * sink is assumed (the trace always fires). Call it with 0 as the second
 * argument: the int overload is preferred where it compiles.
 *
 * \tparam Trace a TracedCallback
 * \param trace the trace source
 * \return true when no sink is connected
 */
template <typename Trace>
auto
TraceIsEmpty(const Trace& trace, int) -> decltype(trace.IsEmpty())
{
    return trace.IsEmpty();
}

/**
 * \ingroup flux
 * \brief The fallback of TraceIsEmpty() for releases without IsEmpty().
 * \tparam Trace a TracedCallback
 * \return false: a sink is assumed
 */
template <typename Trace>
bool
TraceIsEmpty(const Trace& /* trace */, long)
{
    return false;
}

} // namespace ns3

#endif // TRACE_IS_EMPTY_H
