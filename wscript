# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# Build file of the flux module for waf-era ns-3 (3.35 and older), with the
# module at contrib/flux:
#
#   ./waf configure -d release --enable-modules=flux --enable-tests --enable-examples
#   ./waf build
#   ./test.py -s flux-headers
#
# It compiles the same globbed sources as CMakeLists.txt (model/*.cc,
# model/*/*.cc, helper/*.cc; TestSuites test/*-test-suite.cc; examples/*.cc),
# in C++17, against ns-3 modules core, network, internet and traffic-control.
#
# Sources that use ns-3 APIs the tree does not have yet are left out, by the
# table NEWER_NS3_NEEDED below, and so is everything that includes their
# headers, directly or through other flux headers. `python3 wscript 3.31`
# prints what is built and what is left out for a given ns-3 version.

import os
import re

# Files that use ns-3 APIs newer than some waf-era releases, with the oldest
# ns-3 release they were checked to compile with (scripts/check-ns3-api.sh
# compiles every file against Debian's libns3-dev headers of a release).
NEWER_NS3_NEEDED = {
    'model/rdma/rdma-nic.cc': ((3, 37), 'TracedCallback::IsEmpty()'),
    'test/flux-fabric-test-suite.cc': ((3, 37), 'Simulator::Schedule with a lambda'),
    'test/flux-rdma-test-suite.cc': ((3, 37), 'Simulator::Schedule with a lambda'),
}

NS3_DEPENDENCIES = ['core', 'network', 'internet', 'traffic-control']

_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"ns3/([^"]+)"', re.M)


def _glob(base, patterns):
    """Files under base matching the patterns, relative to base, sorted."""
    import glob
    found = set()
    for pattern in patterns:
        for path in glob.glob(os.path.join(base, pattern)):
            found.add(os.path.relpath(path, base).replace(os.sep, '/'))
    return sorted(found)


def _parse_version(text):
    numbers = re.findall(r'\d+', text)
    return tuple(int(n) for n in numbers[:2]) if numbers else (0, 0)


def select_sources(base, version):
    """Split the module's files into what an ns-3 tree of `version` builds.

    Returns a dict with lists 'sources', 'headers', 'tests', 'examples' and
    'left_out' (pairs of path and reason).
    """
    sources = _glob(base, ['model/*.cc', 'model/*/*.cc', 'helper/*.cc'])
    headers = _glob(base, ['model/*.h', 'model/*/*.h', 'helper/*.h'])
    tests = _glob(base, ['test/*-test-suite.cc'])
    examples = _glob(base, ['examples/*.cc'])
    everything = sources + headers + tests + examples

    by_name = dict((os.path.basename(h), h) for h in headers)
    includes = {}
    for path in everything:
        with open(os.path.join(base, path)) as f:
            names = _INCLUDE_RE.findall(f.read())
        includes[path] = set(by_name[n] for n in names if n in by_name)

    left_out = {}
    for path, (first, why) in NEWER_NS3_NEEDED.items():
        if path in includes and version < first:
            left_out[path] = 'needs ns-3 %d.%d+ (%s)' % (first + (why,))

    # A header goes with its implementation, and whatever includes a left-out
    # header is left out too, until nothing changes.
    changed = True
    while changed:
        changed = False
        for path in everything:
            if path in left_out:
                continue
            stem = os.path.splitext(path)[0]
            pair = stem + ('.h' if path.endswith('.cc') else '.cc')
            if pair in left_out:
                left_out[path] = 'goes with ' + pair
                changed = True
                continue
            for inc in sorted(includes[path]):
                if inc in left_out:
                    left_out[path] = 'includes ' + os.path.basename(inc)
                    changed = True
                    break

    def keep(paths):
        return [p for p in paths if p not in left_out]

    return {
        'sources': keep(sources),
        'headers': keep(headers),
        'tests': keep(tests),
        'examples': keep(examples),
        'left_out': sorted(left_out.items()),
    }


def _module_dir(ctx):
    return ctx.path.abspath()


def _tree_version(ctx):
    node = ctx.srcnode.find_node('VERSION')
    return _parse_version(node.read()) if node else (0, 0)


def options(opt):
    pass


def configure(conf):
    have_json = conf.check_cxx(header_name='nlohmann/json.hpp',
                               define_name='HAVE_NLOHMANN_JSON',
                               msg='Checking for nlohmann/json.hpp (flux)',
                               mandatory=False)
    conf.env['FLUX_HAVE_JSON'] = bool(have_json)
    if not have_json:
        conf.env['MODULES_NOT_BUILT'].append('flux')
    conf.report_optional_feature('flux', 'flux (needs nlohmann-json)',
                                 bool(have_json),
                                 'nlohmann/json.hpp not found (Debian: nlohmann-json3-dev)')
    version = _tree_version(conf)
    selection = select_sources(_module_dir(conf), version)
    for path, why in selection['left_out']:
        conf.msg('flux leaves out (ns-3 %d.%d)' % version, '%s: %s' % (path, why),
                 color='YELLOW')


def build(bld):
    if 'flux' in bld.env['MODULES_NOT_BUILT']:
        return
    selection = select_sources(_module_dir(bld), _tree_version(bld))
    cxx17 = ['-std=c++17']

    module = bld.create_ns3_module('flux', NS3_DEPENDENCIES)
    module.source = selection['sources']
    module.cxxflags = cxx17

    if selection['tests']:
        module_test = bld.create_ns3_module_test_library('flux')
        module_test.source = selection['tests']
        module_test.cxxflags = cxx17

    headers = bld(features='ns3header')
    headers.module = 'flux'
    headers.source = selection['headers']

    if bld.env['ENABLE_EXAMPLES']:
        for path in selection['examples']:
            name = os.path.splitext(os.path.basename(path))[0]
            obj = bld.create_ns3_program(name, ['flux'] + NS3_DEPENDENCIES)
            obj.source = path
            obj.cxxflags = cxx17


if __name__ == '__main__':
    # python3 wscript <ns-3 version>: what a tree of that version builds.
    import sys
    wanted = _parse_version(sys.argv[1] if len(sys.argv) > 1 else '3.31')
    here = os.path.dirname(os.path.abspath(__file__))
    chosen = select_sources(here, wanted)
    for key in ('sources', 'headers', 'tests', 'examples'):
        print('%s (%d): %s' % (key, len(chosen[key]), ' '.join(chosen[key])))
    print('left out (%d):' % len(chosen['left_out']))
    for path, why in chosen['left_out']:
        print('  %s: %s' % (path, why))
