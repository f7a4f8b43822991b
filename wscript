# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# Build file of the flux module for waf-era ns-3 (3.35 and older), with the
# module at contrib/flux:
#
#   ./waf configure -d release --enable-modules=flux --enable-tests --enable-examples
#   ./waf build
#   ./test.py -s flux-headers
#   ./waf --run "flux-run contrib/flux/examples/scenarios/single-job.json"
#
# It mirrors CMakeLists.txt: the same globbed sources (model/*.cc,
# model/*/*.cc, helper/*.cc, scenario/*/*.cc, here in one library where
# CMake builds the scenario application as a library of its own), the ns-3
# TestSuites test/*-test-suite.cc and test/scenario/*-test-suite.cc in the
# module's test library, and one program per examples/*.cc (the scenario
# runner flux-run and the teaching examples), all in C++17, against the ns-3
# modules core, network, internet and traffic-control, with nlohmann-json
# (header-only; pkg-config's nlohmann_json, else the header in the compiler's
# search path), valijson (header-only, in the search path) and Protobuf
# (pkg-config's protobuf, and protoc for the C++
# code of scenario/input/chakra-et.proto). The GoogleTest tests and the Python bindings are built by the
# standalone CMake build only.

import glob
import os

from waflib import Utils

NS3_DEPENDENCIES = ['core', 'network', 'internet', 'traffic-control']

CXX17 = ['-std=c++17']


def _glob(base, patterns):
    """Files under base matching the patterns, relative to base, sorted."""
    found = set()
    for pattern in patterns:
        for path in glob.glob(os.path.join(base, pattern)):
            found.add(os.path.relpath(path, base).replace(os.sep, '/'))
    return sorted(found)


def select_sources(base):
    """The module's files, as CMakeLists.txt globs them."""
    return {
        'sources': _glob(base, ['model/*.cc', 'model/*/*.cc', 'helper/*.cc',
                                 'scenario/*/*.cc']),
        'headers': _glob(base, ['model/*.h', 'model/*/*.h', 'helper/*.h',
                                 'scenario/*/*.h']),
        'tests': _glob(base, ['test/*-test-suite.cc', 'test/scenario/*-test-suite.cc']),
        'examples': _glob(base, ['examples/*.cc']),
    }


def options(opt):
    pass


def configure(conf):
    have_json = conf.check_cfg(package='nlohmann_json', args=['--cflags', '--libs'],
                               uselib_store='NLOHMANN_JSON',
                               msg='Checking for nlohmann_json (flux, pkg-config)',
                               mandatory=False)
    if not have_json:
        have_json = conf.check_cxx(header_name='nlohmann/json.hpp', cxxflags=CXX17,
                                   uselib_store='NLOHMANN_JSON',
                                   msg='Checking for nlohmann/json.hpp (flux)',
                                   mandatory=False)
    # valijson (header-only) checks scenarios against the schema.
    have_valijson = conf.check_cxx(header_name='valijson/validator.hpp', cxxflags=CXX17,
                                   uselib_store='VALIJSON',
                                   msg='Checking for valijson/validator.hpp (flux)',
                                   mandatory=False)
    have_json = bool(have_json) and bool(have_valijson)
    conf.env['FLUX_HAVE_JSON'] = bool(have_json)
    # Chakra traces: Protobuf's library and its compiler, protoc.
    have_protobuf = conf.check_cfg(package='protobuf', args=['--cflags', '--libs'],
                                   uselib_store='PROTOBUF',
                                   msg='Checking for protobuf (flux, pkg-config)',
                                   mandatory=False)
    conf.find_program('protoc', var='PROTOC', mandatory=False)
    have_protobuf = bool(have_protobuf) and bool(conf.env['PROTOC'])
    if not have_json or not have_protobuf:
        conf.env['MODULES_NOT_BUILT'].append('flux')
    conf.report_optional_feature('flux', 'flux (needs nlohmann-json, valijson and protobuf)',
                                 bool(have_json) and have_protobuf,
                                 'nlohmann-json, valijson or protobuf not found (Debian: '
                                 'nlohmann-json3-dev libvalijson-dev libprotobuf-dev '
                                 'protobuf-compiler)')


def _embed_schema(task):
    """Write the scenario schema as a C++ string (as cmake/flux-embed-schema.cmake)."""
    text = task.inputs[0].read()
    task.outputs[0].parent.mkdir()
    task.outputs[0].write(
        '// Generated from scenario/config/scenario.schema.json; do not edit.\n'
        'namespace ns3\n{\nnamespace scenario\n{\n'
        'extern const char kScenarioSchemaText[];\n'
        'const char kScenarioSchemaText[] = R"flux_schema(' + text + ')flux_schema";\n'
        '} // namespace scenario\n} // namespace ns3\n')


def build(bld):
    if 'flux' in bld.env['MODULES_NOT_BUILT']:
        return
    selection = select_sources(bld.path.abspath())

    # The Chakra schema's C++ code, generated into the build folder before
    # any C++ file compiles (only the trace reader includes it).
    proto = bld.path.find_resource('scenario/input/chakra-et.proto')
    proto_out = bld.path.get_bld().make_node('flux-proto')
    proto_out.mkdir()
    proto_cc = proto_out.make_node('chakra-et.pb.cc')
    proto_h = proto_out.make_node('chakra-et.pb.h')
    bld(rule='${PROTOC} --cpp_out=%s -I%s ${SRC[0].abspath()}'
             % (proto_out.abspath(), proto.parent.abspath()),
        source=proto, target=[proto_cc, proto_h], before=['cxx'])

    # The scenario schema, compiled in as a string (the parser reads its
    # keys, types and ranges).
    schema = bld.path.find_resource('scenario/config/scenario.schema.json')
    schema_cc = bld.path.get_bld().make_node('flux-schema/scenario-schema-text.cc')
    bld(rule=_embed_schema, source=schema, target=schema_cc, before=['cxx'])

    module = bld.create_ns3_module('flux', NS3_DEPENDENCIES)
    module.source = selection['sources'] + [proto_cc, schema_cc]
    module.cxxflags = CXX17
    module.includes = Utils.to_list(getattr(module, 'includes', [])) + [proto_out]
    module.use = module.use + ['NLOHMANN_JSON', 'VALIJSON', 'PROTOBUF']
    # flux's release (its VERSION file) and ns-3's (the tree's VERSION file)
    releases = [bld.path.find_resource('VERSION'), bld.srcnode.find_resource('VERSION')]
    flux_version, ns3_version = [node.read().strip() if node else 'unknown' for node in releases]
    module.defines = (Utils.to_list(getattr(module, 'defines', []))
                      + ['FLUX_VERSION="%s"' % flux_version, 'FLUX_NS3_VERSION="%s"' % ns3_version])

    module_test = bld.create_ns3_module_test_library('flux')
    module_test.source = selection['tests']
    module_test.cxxflags = CXX17
    module_test.use = module_test.use + ['NLOHMANN_JSON']

    headers = bld(features='ns3header')
    headers.module = 'flux'
    headers.source = selection['headers']

    if bld.env['ENABLE_EXAMPLES']:
        for path in selection['examples']:
            name = os.path.splitext(os.path.basename(path))[0]
            obj = bld.create_ns3_program(name, ['flux'] + NS3_DEPENDENCIES)
            obj.source = path
            obj.cxxflags = CXX17
            # a new list: use is the program's list of ns-3 modules too,
            # which ns-3 checks against the enabled modules
            obj.use = obj.use + ['NLOHMANN_JSON']
