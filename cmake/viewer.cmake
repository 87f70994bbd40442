# The viewer page (`affix view`, src/affix/viewer/): three.js and viewer/src/*.js bundled by esbuild
# into one classic-script IIFE, then compiled into affix_viewer together with the page template
# (viewer/tools/embed.mjs), so that the affix binary carries its page. The npm packages (three,
# esbuild, playwright-core for the browser test) are pinned by viewer/package-lock.json and installed
# with `npm ci` into ${CMAKE_BINARY_DIR}/viewer/node_modules — per build tree, never in the sources —
# again only when that folder is missing or the lock file changed.
find_program(AFFIX_NODE node)
find_program(AFFIX_NPM npm)
if(NOT AFFIX_NODE OR NOT AFFIX_NPM)
  message(FATAL_ERROR "affix: Node.js and npm are needed to build the viewer page (node: ${AFFIX_NODE}, "
                      "npm: ${AFFIX_NPM}). Run scripts/install-deps.sh, then configure again.")
endif()

set(AFFIX_VIEWER_SOURCE ${CMAKE_SOURCE_DIR}/viewer)
set(AFFIX_VIEWER_BUILD ${CMAKE_BINARY_DIR}/viewer)
set(AFFIX_VIEWER_MODULES ${AFFIX_VIEWER_BUILD}/node_modules)
set(AFFIX_VIEWER_STAMP ${AFFIX_VIEWER_MODULES}/.affix-npm-ci)
file(MAKE_DIRECTORY ${AFFIX_VIEWER_BUILD})

add_custom_command(
  OUTPUT ${AFFIX_VIEWER_STAMP}
  COMMAND ${CMAKE_COMMAND} -E copy ${AFFIX_VIEWER_SOURCE}/package.json ${AFFIX_VIEWER_SOURCE}/package-lock.json
          ${AFFIX_VIEWER_BUILD}
  COMMAND ${AFFIX_NPM} ci --no-audit --no-fund --loglevel=error
  COMMAND ${CMAKE_COMMAND} -E touch ${AFFIX_VIEWER_STAMP}
  WORKING_DIRECTORY ${AFFIX_VIEWER_BUILD}
  DEPENDS ${AFFIX_VIEWER_SOURCE}/package.json ${AFFIX_VIEWER_SOURCE}/package-lock.json
  COMMENT "viewer: npm ci (packages pinned by viewer/package-lock.json)"
  VERBATIM)

# The sources are copied beside node_modules so that esbuild resolves `three` there and nowhere else.
file(GLOB AFFIX_VIEWER_JS CONFIGURE_DEPENDS ${AFFIX_VIEWER_SOURCE}/src/*.js)
add_custom_command(
  OUTPUT ${AFFIX_VIEWER_BUILD}/viewer.bundle.js
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${AFFIX_VIEWER_BUILD}/src
  COMMAND ${CMAKE_COMMAND} -E make_directory ${AFFIX_VIEWER_BUILD}/src
  COMMAND ${CMAKE_COMMAND} -E copy ${AFFIX_VIEWER_JS} ${AFFIX_VIEWER_BUILD}/src
  COMMAND ${AFFIX_VIEWER_MODULES}/.bin/esbuild ${AFFIX_VIEWER_BUILD}/src/main.js
          --bundle --format=iife --minify --target=es2020 --charset=utf8 --log-level=warning
          --outfile=${AFFIX_VIEWER_BUILD}/viewer.bundle.js
  WORKING_DIRECTORY ${AFFIX_VIEWER_BUILD}
  DEPENDS ${AFFIX_VIEWER_STAMP} ${AFFIX_VIEWER_JS}
  COMMENT "viewer: esbuild viewer.bundle.js"
  VERBATIM)

add_custom_command(
  OUTPUT ${AFFIX_VIEWER_BUILD}/page.html
  COMMAND ${CMAKE_COMMAND} -E copy ${AFFIX_VIEWER_SOURCE}/src/page.html ${AFFIX_VIEWER_BUILD}/page.html
  DEPENDS ${AFFIX_VIEWER_SOURCE}/src/page.html
  VERBATIM)

add_custom_command(
  OUTPUT ${AFFIX_VIEWER_BUILD}/viewer_assets.cpp
  COMMAND ${AFFIX_NODE} ${AFFIX_VIEWER_SOURCE}/tools/embed.mjs ${AFFIX_VIEWER_BUILD}/viewer.bundle.js
          ${AFFIX_VIEWER_BUILD}/page.html ${AFFIX_VIEWER_BUILD}/viewer_assets.cpp
  DEPENDS ${AFFIX_VIEWER_BUILD}/viewer.bundle.js ${AFFIX_VIEWER_BUILD}/page.html
          ${AFFIX_VIEWER_SOURCE}/tools/embed.mjs
  COMMENT "viewer: embedding the page and its bundle"
  VERBATIM)
target_sources(affix_viewer PRIVATE ${AFFIX_VIEWER_BUILD}/viewer_assets.cpp)

# The page in headless Chromium: runs `affix`, views the run, checks pixels (tests/viewer/).
if(AFFIX_BUILD_TESTS)
  enable_testing()
  add_test(NAME viewer_browser
           COMMAND ${AFFIX_NODE} ${CMAKE_SOURCE_DIR}/tests/viewer/browser_test.mjs $<TARGET_FILE:affix>
                   ${AFFIX_VIEWER_MODULES} ${AFFIX_VIEWER_BUILD}/test-output)
  set_tests_properties(viewer_browser PROPERTIES LABELS viewer TIMEOUT 300)
endif()
