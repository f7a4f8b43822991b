# Included by CMakeLists.txt (standalone build) after find_package(ns3): walks
# the INTERFACE_LINK_LIBRARIES of the imported ns-3 targets that flux links,
# and of the ns-3 targets they name in turn, and stops CMake when a library
# file named there by absolute path does not exist.
#
# Debian's libns3-dev links some modules against libraries by the path of
# their development symlink (/usr/lib/<triplet>/libgsl.so, libxml2.so,
# libsqlite3.so) without depending on the -dev packages that ship those
# symlinks; without this check the build would fail only at link time, with
# "missing and no known rule to make it". scripts/install-deps.sh installs
# these packages and runs the same check.
#
# Input: FLUX_NS3_TARGETS (the imported targets flux links).

# Debian -dev package that ships lib<name>.so, where it is not lib<name>-dev.
set(flux_dev_package_gslcblas libgsl-dev)

set(flux_link_queue ${FLUX_NS3_TARGETS})
set(flux_link_seen)
set(flux_link_missing)
while(flux_link_queue)
  list(GET flux_link_queue 0 flux_link_target)
  list(REMOVE_AT flux_link_queue 0)
  if(flux_link_target IN_LIST flux_link_seen)
    continue()
  endif()
  list(APPEND flux_link_seen ${flux_link_target})
  get_target_property(flux_link_items ${flux_link_target} INTERFACE_LINK_LIBRARIES)
  if(NOT flux_link_items)
    continue()
  endif()
  foreach(flux_link_item IN LISTS flux_link_items)
    # $<LINK_ONLY:x> and similar wrappers: look at what they wrap
    string(REGEX REPLACE "^\\$<[A-Z_]+:(.*)>$" "\\1" flux_link_item "${flux_link_item}")
    if(TARGET ${flux_link_item})
      get_target_property(flux_link_imported ${flux_link_item} IMPORTED)
      if(flux_link_imported)
        list(APPEND flux_link_queue ${flux_link_item})
      endif()
    elseif(IS_ABSOLUTE "${flux_link_item}" AND NOT EXISTS "${flux_link_item}")
      get_filename_component(flux_link_name "${flux_link_item}" NAME)
      string(REGEX REPLACE "^lib([^.]+)\\..*$" "\\1" flux_link_stem "${flux_link_name}")
      if(DEFINED flux_dev_package_${flux_link_stem})
        set(flux_link_package ${flux_dev_package_${flux_link_stem}})
      else()
        set(flux_link_package lib${flux_link_stem}-dev)
      endif()
      list(APPEND flux_link_missing
           "  ${flux_link_item} (linked by ${flux_link_target}, Debian package ${flux_link_package})"
      )
    endif()
  endforeach()
endwhile()

if(flux_link_missing)
  list(JOIN flux_link_missing "\n" flux_link_text)
  message(
    FATAL_ERROR
      "The installed ns-3's CMake targets link library files that do not exist:\n"
      "${flux_link_text}\n"
      "Install the packages named (scripts/install-deps.sh does), then re-run CMake."
  )
endif()
list(LENGTH flux_link_seen flux_link_count)
message(STATUS "flux: the library files of ${flux_link_count} imported ns-3 targets are all present")
