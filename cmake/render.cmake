# `affix render`: offscreen OpenGL through OSMesa (Mesa's software rasteriser: no display, no GPU) and
# PNG frames through libpng. Both are Debian packages (libosmesa6-dev, libpng-dev) that
# scripts/install-deps.sh installs; a machine without them cannot build affix, so say so plainly.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(OSMESA QUIET osmesa)
endif()
find_path(OSMESA_INCLUDE_DIR GL/osmesa.h HINTS ${OSMESA_INCLUDE_DIRS})
find_library(OSMESA_LIBRARY NAMES OSMesa OSMesa16 OSMesa32 HINTS ${OSMESA_LIBRARY_DIRS})
if(NOT OSMESA_INCLUDE_DIR OR NOT OSMESA_LIBRARY)
  message(FATAL_ERROR "affix render needs OSMesa (GL/osmesa.h and libOSMesa): run scripts/install-deps.sh "
                      "(Debian package libosmesa6-dev)")
endif()
find_package(PNG QUIET)
if(NOT PNG_FOUND)
  message(FATAL_ERROR "affix render needs libpng: run scripts/install-deps.sh (Debian package libpng-dev)")
endif()

# libOSMesa exports the GL entry points itself; linking libGL beside it would bind a second dispatcher.
get_target_property(affix_render_type affix_render TYPE)
if(affix_render_type STREQUAL "INTERFACE_LIBRARY")
  set(affix_render_scope INTERFACE)
else()
  set(affix_render_scope PUBLIC)
endif()
target_include_directories(affix_render ${affix_render_scope} ${OSMESA_INCLUDE_DIR})
target_link_libraries(affix_render ${affix_render_scope} ${OSMESA_LIBRARY} PNG::PNG)
