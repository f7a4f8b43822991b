/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "traffic-class.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrafficClass");

namespace TrafficClass
{

bool
ParseOrder(const std::string& text, std::vector<uint8_t>& order)
{
    order.clear();
    std::size_t i = 0;
    while (i < text.size())
    {
        const char ch = text[i];
        if (ch == ' ' || ch == ',' || ch == '\t')
        {
            ++i;
            continue;
        }
        const bool last = i + 1 == text.size();
        if (ch < '0' || ch >= '0' + N_CLASSES ||
            !(last || text[i + 1] == ' ' || text[i + 1] == ',' || text[i + 1] == '\t'))
        {
            order.clear();
            return false;
        }
        order.push_back(static_cast<uint8_t>(ch - '0'));
        ++i;
    }
    return true;
}

std::string
FormatOrder(const std::vector<uint8_t>& order)
{
    std::string s;
    for (uint8_t c : order)
    {
        if (!s.empty())
        {
            s += ' ';
        }
        s += static_cast<char>('0' + c);
    }
    return s;
}

} // namespace TrafficClass
} // namespace ns3
